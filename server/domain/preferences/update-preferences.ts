import { sql } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import { templateIdOf } from '@/lib/contracts/note-style';
import type { PatchPreferencesRequest, PersonalizationPreference, PreferencesResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { userPreferences } from '../../db/schema';
import { getPreferences } from './get-preferences';
import type { ProviderScope, Scoped } from '../scope/scope';

/**
 * Applies the members given (section_format and templates replace the whole list; note_style null removes the
 * default) and returns the stored result. A default style naming a template must name one that is kept.
 */
export async function updatePreferences(app: AppContext, auth: Scoped<ProviderScope>, patch: PatchPreferencesRequest): Promise<PreferencesResponse> {
  return tenantDb(app, auth).transaction(async (tx) => {
    const current = (await getPreferences(tx, auth)).personalization_preference;
    const p = patch.personalization_preference;
    const noteStyle = p.note_style === null ? undefined : (p.note_style ?? current.note_style);
    const templates = p.templates ?? current.templates ?? [];
    const id = noteStyle ? templateIdOf(noteStyle) : null;
    if (id && !templates.some((t) => t.id.toLowerCase() === id)) {
      const field = p.note_style ? 'personalization_preference.note_style' : 'personalization_preference.templates';
      throw badRequest(`${field}: the default note style names template ${id}, which is not among your templates`);
    }
    const next: PersonalizationPreference = {
      verbosity: p.verbosity ?? current.verbosity,
      section_format: p.section_format ?? current.section_format,
      ...(noteStyle ? { note_style: noteStyle } : {}),
      ...(templates.length ? { templates } : {}),
    };
    const stored: PreferencesResponse = { personalization_preference: next };
    await tx.insert(
      userPreferences,
      { providerId: auth.scope.providerId, preferences: stored },
      { onConflict: { target: userPreferences.providerId, set: { preferences: stored, updatedAt: sql`now()` } } },
    );
    return stored;
  });
}
