/**
 * The after-visit summary: the plan, medicine changes, follow-up and warning signs of one visit in
 * plain words for the patient, built only from the note and its structured data.
 */
import { z } from 'zod';

export const SummaryMedicine = z
  .object({
    /** What to do with it: start, keep taking, change, stop, refill, pause. */
    change: z.enum(['START', 'KEEP', 'CHANGE', 'STOP', 'REFILL', 'PAUSE']),
    drug: z.string(),
    /** e.g. "500 mg"; null when the note gives none. */
    dose: z.string().nullable(),
    /** How and when to take it, in plain words; null when the note gives none. */
    how_to_take: z.string().nullable(),
    /** The whole line as shown to the patient. */
    text: z.string(),
  })
  .meta({ id: 'SummaryMedicine' });
export type SummaryMedicine = z.infer<typeof SummaryMedicine>;

export const VisitSummaryResponse = z
  .object({
    ambient_session_id: z.uuid(),
    /** What the visit was about (diagnoses), in plain words. */
    about: z.array(z.string()),
    plan: z.array(z.string()),
    medicines: z.array(SummaryMedicine),
    follow_up: z.array(z.string()),
    /** When to call or get care right away. */
    get_help: z.array(z.string()),
    /** Additive (issue 29): the allergies in the visit's structured data, one line each. */
    allergies: z.array(z.string()).optional(),
    /** Additive (issue 29): lab and imaging orders, one line each. */
    tests: z.array(z.string()).optional(),
    /** Additive (issue 29): the clinic's name and how to reach it, from the partner's settings; null when not set. */
    clinic: z.object({ name: z.string(), phone: z.string().nullable() }).nullable().optional(),
    /** The whole summary as plain text, for copying or pasting into a patient portal. */
    text: z.string(),
    /** Flesch-Kincaid grade level of `text` (about 6 is the target). */
    reading_grade: z.number(),
  })
  .meta({ id: 'VisitSummaryResponse' });
export type VisitSummaryResponse = z.infer<typeof VisitSummaryResponse>;
