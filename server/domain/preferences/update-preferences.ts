import { sql } from 'drizzle-orm';
import type { PatchPreferencesRequest, PreferencesResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { userPreferences } from '../../db/schema';
import { getPreferences } from './get-preferences';
import type { ProviderScope, Scoped } from '../scope/scope';

/** Applies the members given (section_format replaces the whole list) and returns the stored result. */
export async function updatePreferences(app: AppContext, auth: Scoped<ProviderScope>, patch: PatchPreferencesRequest): Promise<PreferencesResponse> {
  return app.db.transaction(async (tx) => {
    const current = await getPreferences({ db: tx as unknown as AppContext['db'] }, auth);
    const next: PreferencesResponse = {
      personalization_preference: {
        verbosity: patch.personalization_preference.verbosity ?? current.personalization_preference.verbosity,
        section_format: patch.personalization_preference.section_format ?? current.personalization_preference.section_format,
      },
    };
    await tx
      .insert(userPreferences)
      .values({ providerId: auth.scope.providerId, preferences: next })
      .onConflictDoUpdate({ target: userPreferences.providerId, set: { preferences: next, updatedAt: sql`now()` } });
    return next;
  });
}
