import { DEFAULT_PREFERENCES, PersonalizationPreference, type PreferencesResponse } from '@/lib/contracts/sessions';
import { tenantDb, type DbOwner, type TenantDb } from '../../db';
import { userPreferences } from '../../db/schema';
import type { ProviderScope, Scoped } from '../scope/scope';

/**
 * A provider's note preferences, defaults filled in. Exported for the note pipeline as well as the API;
 * a stored value that no longer validates (a LOINC withdrawn from the list) falls back member by member.
 * note_style and templates (issue 31) are left out until set. `app` may be an open TenantDb (a transaction).
 */
export async function getPreferences(app: DbOwner | TenantDb, auth: Scoped<ProviderScope>): Promise<PreferencesResponse> {
  const row = await tenantDb(app, auth).find(userPreferences);
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
