/** The provider's note preferences (verbosity, section formats, note style and templates), used by note generation. */
import { z } from 'zod';
import { LoincCode } from '@/lib/info';
import { NoteStyleRef, NoteTemplates, templateIdOf } from './note-style';

// ---------------------------------------------------------------------------------------------
// Preferences
// ---------------------------------------------------------------------------------------------

export const Verbosity = z.enum(['CONCISE', 'BALANCED', 'DETAILED'], { error: 'must be one of CONCISE, BALANCED, DETAILED' });
export const SectionStyle = z.enum(['NARRATIVE', 'BULLETED'], { error: 'must be NARRATIVE or BULLETED' });

export const SectionFormat = z.array(z.object({ loinc: LoincCode, style: SectionStyle })).max(68);

/**
 * Additive (issue 31): note_style is the clinician's default style (a built-in or `template:<id>`), and
 * templates their own; both absent until set, so a provider who never set them reads what they always did.
 */
export const PersonalizationPreference = z.object({
  verbosity: Verbosity,
  section_format: SectionFormat,
  note_style: NoteStyleRef.optional(),
  templates: NoteTemplates.optional(),
});
export type PersonalizationPreference = z.infer<typeof PersonalizationPreference>;

export const PreferencesResponse = z
  .object({ personalization_preference: PersonalizationPreference })
  .meta({ id: 'UserPreferences' });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;

/** Members given replace the stored ones; section_format and templates are replaced as whole lists. */
export const PatchPreferencesRequest = z
  .object({
    personalization_preference: z
      .object({
        verbosity: Verbosity.optional(),
        section_format: SectionFormat.optional(),
        /** null goes back to no default style. */
        note_style: NoteStyleRef.nullable().optional(),
        /** Replaced as a whole list; [] removes them all. */
        templates: NoteTemplates.optional(),
      })
      .superRefine((p, ctx) => {
        const seen = new Set<string>();
        p.section_format?.forEach((s, i) => {
          if (seen.has(s.loinc)) ctx.addIssue({ code: 'custom', path: ['section_format', i, 'loinc'], message: `${s.loinc} is listed twice` });
          seen.add(s.loinc);
        });
        // A default naming a template sent in the same patch must name one of them (stored ones are checked on the server).
        const id = p.note_style ? templateIdOf(p.note_style) : null;
        if (id && p.templates && !p.templates.some((t) => t.id.toLowerCase() === id)) {
          ctx.addIssue({ code: 'custom', path: ['note_style'], message: `names template ${id}, which is not among templates` });
        }
      }),
  })
  .meta({ id: 'PatchUserPreferences' });
export type PatchPreferencesRequest = z.infer<typeof PatchPreferencesRequest>;

export const DEFAULT_PREFERENCES: PersonalizationPreference = Object.freeze({ verbosity: 'BALANCED', section_format: [] }) as PersonalizationPreference;
