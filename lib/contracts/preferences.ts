/** The provider's note preferences (verbosity and section formats), used by note generation. */
import { z } from 'zod';
import { LoincCode } from '@/lib/info';

// ---------------------------------------------------------------------------------------------
// Preferences
// ---------------------------------------------------------------------------------------------

export const Verbosity = z.enum(['CONCISE', 'BALANCED', 'DETAILED'], { error: 'must be one of CONCISE, BALANCED, DETAILED' });
export const SectionStyle = z.enum(['NARRATIVE', 'BULLETED'], { error: 'must be NARRATIVE or BULLETED' });

export const SectionFormat = z.array(z.object({ loinc: LoincCode, style: SectionStyle })).max(68);

export const PersonalizationPreference = z.object({ verbosity: Verbosity, section_format: SectionFormat });
export type PersonalizationPreference = z.infer<typeof PersonalizationPreference>;

export const PreferencesResponse = z
  .object({ personalization_preference: PersonalizationPreference })
  .meta({ id: 'UserPreferences' });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;

/** Members given replace the stored ones; section_format is replaced as a whole list. */
export const PatchPreferencesRequest = z
  .object({
    personalization_preference: z
      .object({ verbosity: Verbosity.optional(), section_format: SectionFormat.optional() })
      .superRefine((p, ctx) => {
        const seen = new Set<string>();
        p.section_format?.forEach((s, i) => {
          if (seen.has(s.loinc)) ctx.addIssue({ code: 'custom', path: ['section_format', i, 'loinc'], message: `${s.loinc} is listed twice` });
          seen.add(s.loinc);
        });
      }),
  })
  .meta({ id: 'PatchUserPreferences' });
export type PatchPreferencesRequest = z.infer<typeof PatchPreferencesRequest>;

export const DEFAULT_PREFERENCES: PersonalizationPreference = Object.freeze({ verbosity: 'BALANCED', section_format: [] }) as PersonalizationPreference;
