import { DEFAULT_PREFERENCES, PersonalizationPreference, type PreferencesResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { userPreferences } from '../../db/schema';
import type { ProviderScope, Scoped } from '../scope/scope';
import { scopeWhere } from '../scope/scope-where';

/**
 * A provider's note preferences, defaults filled in. Exported for the note pipeline as well as the API;
 * a stored value that no longer validates (a LOINC withdrawn from the list) falls back member by member.
 * note_style and templates (issue 31) are left out until set.
 */
export async function getPreferences(app: AppContext | { db: Db }, auth: Scoped<ProviderScope>): Promise<PreferencesResponse> {
  const row = (await app.db.select({ preferences: userPreferences.preferences }).from(userPreferences).where(scopeWhere(auth.scope, userPreferences)).limit(1))[0];
  const stored = ((row?.preferences ?? {}) as { personalization_preference?: Record<string, unknown> }).personalization_preference ?? {};
  const verbosity = PersonalizationPreference.shape.verbosity.safeParse(stored.verbosity);
  const sectionFormat = PersonalizationPreference.shape.section_format.safeParse(stored.section_format);
  const noteStyle = PersonalizationPreference.shape.note_style.safeParse(stored.note_style);
  const templates = PersonalizationPreference.shape.templates.safeParse(stored.templates);
  return {
    personalization_preference: {
      verbosity: verbosity.success ? verbosity.data : DEFAULT_PREFERENCES.verbosity,
      section_format: sectionFormat.success ? sectionFormat.data : [...DEFAULT_PREFERENCES.section_format],
      ...(noteStyle.success && noteStyle.data ? { note_style: noteStyle.data } : {}),
      ...(templates.success && templates.data?.length ? { templates: templates.data } : {}),
    },
  };
}
