/**
 * How spoken sig phrases map onto the info-list codes (lib/info is the source of truth; the types
 * below make a code that is not in a list a compile error).
 */
import type { DosageUnitCode, FrequencyTypeCode, MedicationOrderStatusCode, MedicationTimingCode } from '@/lib/info';
export { DEFAULT_NOTE_SECTIONS } from '@/lib/info';

export const FREQUENCY_PATTERNS: Array<[RegExp, FrequencyTypeCode]> = [
  [/\b(as needed|as-needed|when needed|if needed|prn|as necessary)\b/i, 'AS_NEEDED'],
  [/\b(four times (a|per) day|4 times (a|per) day|qid|four times daily|4 times daily)\b/i, 'FOUR_A_DAY'],
  [/\b(three times (a|per) day|3 times (a|per) day|tid|three times daily|3 times daily)\b/i, 'THREE_A_DAY'],
  [/\b(twice (a|per) day|twice daily|two times (a|per) day|2 times (a|per) day|bid|b\.i\.d\.|twice a daily)\b/i, 'TWO_A_DAY'],
  [/\b(every 12 hours|q12h)\b/i, 'EVERY_12_HOURS'],
  [/\b(every 4 hours|q4h)\b/i, 'EVERY_4_HOURS'],
  [/\b(every 6 hours|q6h)\b/i, 'EVERY_6_HOURS'],
  [/\b(every 8 hours|q8h)\b/i, 'EVERY_8_HOURS'],
  [/\b(once (a|per) week|weekly|every week|once weekly)\b/i, 'ONCE_A_WEEK'],
  [/\b(once (a|per) month|monthly|every month)\b/i, 'ONCE_A_MONTH'],
  [/\b(every other day)\b/i, 'EVERY_OTHER_DAY'],
  [/\b(at bedtime|at night|nightly|every night|before bed|qhs)\b/i, 'AT_BEDTIME'],
  [/\b(every morning|each morning)\b/i, 'EVERY_MORNING'],
  [/\b(once (a|per) day|once daily|daily|a day|every day|per day|every morning|each day|qd|one a day)\b/i, 'ONE_A_DAY'],
];

export const TIMING_PATTERNS: Array<[RegExp, MedicationTimingCode]> = [
  [/\b(with (meals|food|breakfast and dinner|each meal)|with your meals)\b/i, 'WITH_MEALS'],
  // One meal said is that meal (FHIR ACM, CM, ACV, CV), not every meal.
  [/\b(before (your )?breakfast)\b/i, 'BEFORE_BREAKFAST'],
  [/\b(with (your )?breakfast)\b/i, 'WITH_BREAKFAST'],
  [/\b(before (your )?(dinner|supper))\b/i, 'BEFORE_DINNER'],
  [/\b(with (your )?(dinner|supper))\b/i, 'WITH_DINNER'],
  [/\b(before (meals|eating))\b/i, 'BEFORE_MEALS'],
  [/\b(after (meals|eating))\b/i, 'AFTER_MEALS'],
  [/\b(at bedtime|before bed|at night|nightly)\b/i, 'AT_BEDTIME'],
  [/\b(in the morning|every morning)\b/i, 'IN_THE_MORNING'],
  [/\b(on an empty stomach)\b/i, 'ON_EMPTY_STOMACH'],
];

/** Spoken unit → unit code. */
export const UNIT_CODES: Record<string, DosageUnitCode> = {
  mg: 'MG', milligram: 'MG', milligrams: 'MG', mcg: 'MCG', microgram: 'MCG', micrograms: 'MCG', g: 'G', gram: 'G', grams: 'G',
  ml: 'ML', milliliter: 'ML', milliliters: 'ML', cc: 'ML', unit: 'UNIT', units: 'UNIT', iu: 'IU', 'international units': 'IU',
  tablet: 'TAB', tablets: 'TAB', tab: 'TAB', tabs: 'TAB', pill: 'TAB', pills: 'TAB', capsule: 'CAP', capsules: 'CAP', application: 'APPLICATION', injection: 'INJECTION',
  puff: 'PUFF', puffs: 'PUFF', drop: 'DROP', drops: 'DROP', patch: 'PATCH', spray: 'SPRAY', sprays: 'SPRAY',
  teaspoon: 'TSP', teaspoons: 'TSP', tablespoon: 'TBSP', tablespoons: 'TBSP', meq: 'MEQ', milliequivalents: 'MEQ',
};

export const ROUTE_PATTERNS: Array<[RegExp, string]> = [
  [/\b(by mouth|orally|oral|po|tablet|tablets|pill|pills|capsule|capsules)\b/i, 'ORAL'],
  [/\b(topical|topically|cream|ointment|gel|apply|lotion)\b/i, 'TOPICAL'],
  [/\b(inhaler|inhaled|inhale|puffs?|nebulizer)\b/i, 'INHALATION'],
  [/\b(nasal spray|intranasal|in each nostril|nasal)\b/i, 'NASAL'],
  [/\b(injection|inject|shot|subcutaneous|subcutaneously|subq|sub-q)\b/i, 'SUBCUTANEOUS'],
  [/\b(intramuscular|im injection)\b/i, 'INTRAMUSCULAR'],
  [/\b(intravenous|iv)\b/i, 'INTRAVENOUS'],
  [/\b(eye drops?|ophthalmic)\b/i, 'OPHTHALMIC'],
  [/\b(patch|transdermal)\b/i, 'TRANSDERMAL'],
];

export const STATUS = {
  NEW: 'NEW', ACTIVE: 'ACTIVE', CONTINUED: 'CONTINUED', CHANGED: 'CHANGED', REFILLED: 'REFILLED', DISCONTINUED: 'DISCONTINUED',
} as const satisfies Record<string, MedicationOrderStatusCode>;
export const ORIGIN = { AMBIENT: 'AMBIENT', EMR: 'EMR', USER: 'USER' } as const;
export const RELATION = { CURRENT: 'CURRENT_ENCOUNTER', PRIOR: 'PRIOR_ENCOUNTER' } as const;

/** Default note sections with the headings scribes use. */
export const SECTION_TITLES: Record<string, string> = {
  '10154-3': 'CHIEF COMPLAINT',
  '10164-2': 'HISTORY OF PRESENT ILLNESS',
  '10187-3': 'REVIEW OF SYSTEMS',
  '29545-1': 'PHYSICAL EXAMINATION',
  '30954-2': 'RESULTS',
  '51847-2': 'ASSESSMENT AND PLAN',
  '10160-0': 'MEDICATIONS',
  '48765-2': 'ALLERGIES',
  '11348-0': 'PAST MEDICAL HISTORY',
  '10157-6': 'FAMILY HISTORY',
  '29762-2': 'SOCIAL HISTORY',
  '47519-4': 'PROCEDURES',
  '11369-6': 'IMMUNIZATIONS',
  '8716-3': 'VITAL SIGNS',
  '51848-0': 'ASSESSMENT',
  '18776-5': 'PLAN',
  '11450-4': 'PROBLEM LIST',
  '29299-5': 'REASON FOR VISIT',
  '42349-1': 'REASON FOR REFERRAL',
  '69730-0': 'INSTRUCTIONS',
  '10183-2': 'HOSPITAL DISCHARGE MEDICATIONS',
  '61150-9': 'SUBJECTIVE',
  '10210-3': 'GENERAL STATUS',
};
