/**
 * The built-in note styles (issue 31) and the style each specialty starts with. A style lists the note's
 * sections in order: each has a heading, the LOINC code it is filed under, and the engine sections
 * (`parts`, LOINC codes) whose sentences it gathers, in order. SOAP's Subjective, for one, gathers the chief
 * complaint, the history and the review of systems. Shared by the server's style layer and the UI.
 */
import type { SpecialtyCode } from './lists';

export const BUILTIN_STYLE_IDS = ['SOAP', 'APSO', 'HP', 'PROGRESS'] as const;
export type BuiltinStyleId = (typeof BUILTIN_STYLE_IDS)[number];

export interface StyleSection {
  /** The LOINC code the section is filed under (unique within a style). */
  loinc: string;
  heading: string;
  /** Engine sections whose sentences this section gathers; the section's own code when absent. */
  parts?: string[];
  /** Bullets or prose; absent: the clinician's section_format preference, else the engine's default. */
  format?: 'NARRATIVE' | 'BULLETED';
  /** Fixed wording the clinician chose; shown as template text, never as said in the visit. */
  template_text?: string[];
}

export interface NoteStyleDefinition {
  id: string;
  name: string;
  description: string;
  sections: StyleSection[];
}

const SUBJECTIVE: StyleSection = { loinc: '61150-9', heading: 'SUBJECTIVE', parts: ['10154-3', '61150-9', '10187-3'] };
const OBJECTIVE: StyleSection = { loinc: '61149-1', heading: 'OBJECTIVE', parts: ['29545-1', '30954-2'] };
const ASSESSMENT: StyleSection = { loinc: '51848-0', heading: 'ASSESSMENT' };
const PLAN: StyleSection = { loinc: '18776-5', heading: 'PLAN', parts: ['18776-5', '10160-0'] };

export const BUILTIN_STYLES: Readonly<Record<BuiltinStyleId, NoteStyleDefinition>> = Object.freeze({
  SOAP: { id: 'SOAP', name: 'SOAP', description: 'Subjective, Objective, Assessment, Plan', sections: [SUBJECTIVE, OBJECTIVE, ASSESSMENT, PLAN] },
  APSO: { id: 'APSO', name: 'APSO', description: 'Assessment and Plan first, then Subjective and Objective', sections: [ASSESSMENT, PLAN, SUBJECTIVE, OBJECTIVE] },
  HP: {
    id: 'HP',
    name: 'History and physical',
    description: 'Chief complaint, history, medications, allergies, review of systems, exam, results, assessment and plan',
    sections: [
      { loinc: '10154-3', heading: 'CHIEF COMPLAINT' },
      { loinc: '10164-2', heading: 'HISTORY OF PRESENT ILLNESS' },
      { loinc: '10160-0', heading: 'MEDICATIONS' },
      { loinc: '48765-2', heading: 'ALLERGIES' },
      { loinc: '10187-3', heading: 'REVIEW OF SYSTEMS' },
      { loinc: '29545-1', heading: 'PHYSICAL EXAMINATION' },
      { loinc: '30954-2', heading: 'RESULTS' },
      { loinc: '51847-2', heading: 'ASSESSMENT AND PLAN' },
    ],
  },
  PROGRESS: {
    id: 'PROGRESS',
    name: 'Progress note',
    description: 'Interval history, exam, results, assessment and plan, medications',
    sections: [
      { loinc: '10164-2', heading: 'INTERVAL HISTORY', parts: ['10154-3', '10164-2'] },
      { loinc: '29545-1', heading: 'EXAM' },
      { loinc: '30954-2', heading: 'RESULTS' },
      { loinc: '51847-2', heading: 'ASSESSMENT AND PLAN' },
      { loinc: '10160-0', heading: 'MEDICATIONS' },
    ],
  },
});

/**
 * The style a new visit starts with for a specialty when the clinician has not chosen a default:
 * hospital and surgical specialties write an H&P, follow-up-heavy ones a progress note, the rest SOAP.
 */
export const SPECIALTY_DEFAULT_STYLE: Partial<Record<SpecialtyCode, BuiltinStyleId>> = Object.freeze({
  HOSPITAL_MEDICINE: 'HP',
  EMERGENCY_MEDICINE: 'HP',
  GENERAL_SURGERY: 'HP',
  ORTHOPEDIC_SURGERY: 'HP',
  CARDIOLOGY: 'PROGRESS',
  ENDOCRINOLOGY: 'PROGRESS',
  NEPHROLOGY: 'PROGRESS',
  MEDICAL_ONCOLOGY: 'PROGRESS',
  PSYCHIATRY: 'PROGRESS',
  URGENT_CARE: 'APSO',
});

export function specialtyDefaultStyle(specialty: string | undefined): BuiltinStyleId {
  return (specialty && SPECIALTY_DEFAULT_STYLE[specialty as SpecialtyCode]) || 'SOAP';
}
