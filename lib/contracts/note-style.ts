/**
 * Note styles and the clinician's own templates (issue 31): the schemas shared by the preferences API,
 * the visit's style and pre-chart endpoints, the style layer on the server and the UI.
 */
import { z } from 'zod';
import { LoincCode } from '@/lib/info';
import { BUILTIN_STYLE_IDS } from '@/lib/info/note-styles';
import { Uuid, nonEmpty } from './common';

const TEMPLATE_REF = /^template:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A built-in style or one of the clinician's templates, written `template:<id>`. */
export const NoteStyleRef = z
  .string({ error: 'must be a string' })
  .refine((s) => (BUILTIN_STYLE_IDS as readonly string[]).includes(s) || TEMPLATE_REF.test(s), {
    message: `must be one of ${BUILTIN_STYLE_IDS.join(', ')} or template:<template id>`,
  });
export type NoteStyleRef = z.infer<typeof NoteStyleRef>;

export const templateRef = (id: string) => `template:${id.toLowerCase()}`;
export const templateIdOf = (ref: string): string | null => (TEMPLATE_REF.test(ref) ? ref.slice('template:'.length).toLowerCase() : null);

/**
 * Template text is fixed wording in every note the template writes, so it can never be evidence of what
 * happened in a visit (issue 32): wording that says the patient stated, reported or agreed to something is
 * refused. "Return precautions given." is fine; "Patient agrees with the plan." is not.
 */
const PATIENT_ASSERTION =
  /\b(?:patient|pt|he|she|they|parents?|family)\b[^.;]*\b(?:states?|stated|says|said|reports?|reported|agrees?|agreed|consents?|consented|denies|denied|endorses|endorsed|verbali[sz]e[sd]?|understands|understood|acknowledges?|acknowledged|declines?|declined|requests?|requested|complains?|complained|wants?|wished?|prefers?|preferred)\b/i;
const BARE_ASSERTION = /\b(?:agreed|consented|verbali[sz]ed understanding|in agreement|voiced understanding)\b/i;

export function assertsPatientSpeech(text: string): boolean {
  return PATIENT_ASSERTION.test(text) || BARE_ASSERTION.test(text);
}

export const TemplateText = nonEmpty(300).refine((t) => !assertsPatientSpeech(t), {
  message: 'must not state what the patient said or agreed to: template text is the same in every note, not from the visit',
});

export const TemplateSection = z.object({
  loinc: LoincCode,
  heading: nonEmpty(80),
  format: z.enum(['NARRATIVE', 'BULLETED'], { error: 'must be NARRATIVE or BULLETED' }),
  template_text: z.array(TemplateText).max(10, 'must hold at most 10 lines').optional(),
});
export type TemplateSection = z.infer<typeof TemplateSection>;

export const NoteTemplate = z
  .object({
    id: Uuid,
    name: nonEmpty(80),
    sections: z.array(TemplateSection).min(1, 'must hold at least one section').max(30, 'must hold at most 30 sections'),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.sections.forEach((s, i) => {
      if (seen.has(s.loinc)) ctx.addIssue({ code: 'custom', path: ['sections', i, 'loinc'], message: `${s.loinc} is listed twice` });
      seen.add(s.loinc);
    });
  })
  .meta({ id: 'NoteTemplate' });
export type NoteTemplate = z.infer<typeof NoteTemplate>;

export const NoteTemplates = z
  .array(NoteTemplate)
  .max(20, 'must hold at most 20 templates')
  .superRefine((list, ctx) => {
    const ids = new Set<string>();
    const names = new Set<string>();
    list.forEach((t, i) => {
      if (ids.has(t.id.toLowerCase())) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `${t.id} is listed twice` });
      if (names.has(t.name.toLowerCase())) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${t.name} names two templates` });
      ids.add(t.id.toLowerCase());
      names.add(t.name.toLowerCase());
    });
  });

// ---------------------------------------------------------------------------------------------
// A visit's style and pre-chart
// ---------------------------------------------------------------------------------------------

export const VisitNoteStyle = z
  .object({
    /** The style chosen for this visit, or null: the clinician's default applies. */
    note_style: NoteStyleRef.nullable(),
    /** The style the note is (or will be) written in: the visit's, else the clinician's default, else none (the requested sections). */
    effective_style: NoteStyleRef.nullable(),
    /** True when the finished note was written again in the style just chosen. */
    rerendered: z.boolean(),
  })
  .meta({ id: 'VisitNoteStyle' });
export type VisitNoteStyle = z.infer<typeof VisitNoteStyle>;

export const SetVisitNoteStyleRequest = z.object({ note_style: NoteStyleRef }).meta({ id: 'SetVisitNoteStyle' });

export const PreChartResponse = z
  .object({
    problems: z.array(z.object({ name: z.string(), code: z.string().nullable() })),
    medications: z.array(z.object({ name: z.string(), detail: z.string().nullable() })),
    allergies: z.array(z.object({ name: z.string(), reaction: z.string().nullable() })),
    /** The plan of this patient's last finished visit with this clinician, or null. */
    last_plan: z.object({ ambient_session_id: z.string(), date: z.string(), text: z.string() }).nullable(),
    previsit_note: z.string().nullable(),
  })
  .meta({ id: 'PreChart' });
export type PreChartResponse = z.infer<typeof PreChartResponse>;

export const SetPrevisitNoteRequest = z
  .object({ previsit_note: z.string().trim().max(500, 'must be at most 500 characters').nullable() })
  .meta({ id: 'SetPrevisitNote' });
