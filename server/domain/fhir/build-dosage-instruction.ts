import type { Dosage, Quantity, TimingRepeat } from '@medplum/fhirtypes';
import { DOSAGE_UNIT_LABELS, FREQUENCY_TYPE_INFO, type DosageUnitCode, type FrequencyTypeCode } from '@/lib/info';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import { SYSTEM } from './systems';

/** Dosage units (info list) → UCUM. Dose forms are counts, written as UCUM annotations ({tablet}). */
const UCUM: Partial<Record<DosageUnitCode, string>> = {
  G: 'g',
  MG: 'mg',
  MCG: 'ug',
  NG: 'ng',
  L: 'L',
  ML: 'mL',
  TSP: '[tsp_us]',
  TBSP: '[tbs_us]',
  FL_OZ: '[foz_us]',
  INCH: '[in_i]',
  CM: 'cm',
  UNIT: '[U]',
  IU: '[iU]',
  MILLION_UNITS: '10*6.[U]',
  MEQ: 'meq',
  MMOL: 'mmol',
  MG_PER_KG: 'mg/kg',
  MCG_PER_KG: 'ug/kg',
  UNIT_PER_KG: '[U]/kg',
  MG_PER_M2: 'mg/m2',
};

/** Frequency (info list) → Timing.repeat; absent for PRN and continuous, which have no schedule. */
const REPEAT: Partial<Record<FrequencyTypeCode, TimingRepeat>> = {
  ONE_A_DAY: { frequency: 1, period: 1, periodUnit: 'd' },
  TWO_A_DAY: { frequency: 2, period: 1, periodUnit: 'd' },
  THREE_A_DAY: { frequency: 3, period: 1, periodUnit: 'd' },
  FOUR_A_DAY: { frequency: 4, period: 1, periodUnit: 'd' },
  FIVE_A_DAY: { frequency: 5, period: 1, periodUnit: 'd' },
  EVERY_MORNING: { frequency: 1, period: 1, periodUnit: 'd', when: ['MORN'] },
  EVERY_EVENING: { frequency: 1, period: 1, periodUnit: 'd', when: ['EVE'] },
  AT_BEDTIME: { frequency: 1, period: 1, periodUnit: 'd', when: ['HS'] },
  EVERY_HOUR: { frequency: 1, period: 1, periodUnit: 'h' },
  EVERY_2_HOURS: { frequency: 1, period: 2, periodUnit: 'h' },
  EVERY_3_HOURS: { frequency: 1, period: 3, periodUnit: 'h' },
  EVERY_4_HOURS: { frequency: 1, period: 4, periodUnit: 'h' },
  EVERY_6_HOURS: { frequency: 1, period: 6, periodUnit: 'h' },
  EVERY_8_HOURS: { frequency: 1, period: 8, periodUnit: 'h' },
  EVERY_12_HOURS: { frequency: 1, period: 12, periodUnit: 'h' },
  EVERY_24_HOURS: { frequency: 1, period: 24, periodUnit: 'h' },
  EVERY_48_HOURS: { frequency: 1, period: 48, periodUnit: 'h' },
  EVERY_72_HOURS: { frequency: 1, period: 72, periodUnit: 'h' },
  EVERY_OTHER_DAY: { frequency: 1, period: 2, periodUnit: 'd' },
  ONCE_A_WEEK: { frequency: 1, period: 1, periodUnit: 'wk' },
  TWICE_A_WEEK: { frequency: 2, period: 1, periodUnit: 'wk' },
  THREE_TIMES_A_WEEK: { frequency: 3, period: 1, periodUnit: 'wk' },
  EVERY_2_WEEKS: { frequency: 1, period: 2, periodUnit: 'wk' },
  ONCE_A_MONTH: { frequency: 1, period: 1, periodUnit: 'mo' },
  EVERY_3_MONTHS: { frequency: 1, period: 3, periodUnit: 'mo' },
  EVERY_6_MONTHS: { frequency: 1, period: 6, periodUnit: 'mo' },
  ONCE_A_YEAR: { frequency: 1, period: 1, periodUnit: 'a' },
  ONCE: { count: 1 },
  STAT: { count: 1 },
};

/** Medication timing (info list) → FHIR event-timing codes; the rest become an additional instruction. */
const WHEN: Record<string, string> = {
  WITH_MEALS: 'C',
  WITH_FOOD: 'C',
  BEFORE_MEALS: 'AC',
  AFTER_MEALS: 'PC',
  BEFORE_BREAKFAST: 'ACM',
  WITH_BREAKFAST: 'CM',
  BEFORE_DINNER: 'ACV',
  WITH_DINNER: 'CV',
  UPON_WAKING: 'WAKE',
  IN_THE_MORNING: 'MORN',
  IN_THE_AFTERNOON: 'AFT',
  IN_THE_EVENING: 'EVE',
  AT_BEDTIME: 'HS',
};

/** Common route wordings → SNOMED CT route concepts (FHIR's route-codes value set). */
const ROUTES: Array<[RegExp, string, string]> = [
  [/^(oral(ly)?|by mouth|po|p\.o\.)$/i, '26643006', 'Oral route'],
  [/^(sublingual(ly)?|sl|under the tongue)$/i, '37839007', 'Sublingual route'],
  [/^(topical(ly)?|to skin)$/i, '6064005', 'Topical route'],
  [/^(transdermal(ly)?)$/i, '45890007', 'Transdermal route'],
  [/^(subcutaneous(ly)?|subq|sc|sq)$/i, '34206005', 'Subcutaneous route'],
  [/^(intramuscular(ly)?|im)$/i, '78421000', 'Intramuscular route'],
  [/^(intravenous(ly)?|iv)$/i, '47625008', 'Intravenous route'],
  [/^(inhal(ed|ation)|inhaled by mouth)$/i, '447694001', 'Respiratory tract route'],
  [/^(nasal(ly)?|intranasal(ly)?|in(to)? the nose)$/i, '46713006', 'Nasal route'],
  [/^(rectal(ly)?|pr)$/i, '37161004', 'Rectal route'],
  [/^(ophthalmic|in(to)? the eyes?)$/i, '54485002', 'Ophthalmic route'],
  [/^(otic|in(to)? the ears?)$/i, '10547007', 'Otic route'],
];

const humanize = (code: string) => code.toLowerCase().replace(/_/g, ' ');

function doseQuantity(order: MedicationOrder): Quantity | undefined {
  const { quantity, unit } = order.dosage;
  if (quantity === null) return undefined;
  if (!unit?.trim()) return { value: quantity };
  // Engines write the info-list code; an external engine's free-text unit still gets a UCUM annotation.
  const code = unit.trim().toUpperCase() as DosageUnitCode;
  const label = DOSAGE_UNIT_LABELS[code] ?? unit.trim();
  const ucum = UCUM[code] ?? `{${label.replace(/[{}\s]+/g, '_')}}`;
  return { value: quantity, unit: label, system: SYSTEM.ucum, code: ucum };
}

/** The human-readable sig, from the coded parts where there are some and the spoken wording otherwise. */
function sigText(order: MedicationOrder, dose: Quantity | undefined): string {
  const parts: string[] = [];
  if (dose) parts.push(`${dose.value}${dose.unit ? ` ${dose.unit}` : ''}`);
  else if (order.dosage.raw_value?.trim()) parts.push(order.dosage.raw_value.trim());
  if (order.route?.trim()) parts.push(order.route.trim());
  const freq = order.frequency.structured_value as FrequencyTypeCode | null;
  if (freq && FREQUENCY_TYPE_INFO[freq]) parts.push(FREQUENCY_TYPE_INFO[freq].label.toLowerCase());
  else if (order.frequency.raw_value?.trim()) parts.push(order.frequency.raw_value.trim());
  if (order.medication_timing) parts.push(humanize(order.medication_timing));
  if (order.duration_in_days) parts.push(`for ${order.duration_in_days} day${order.duration_in_days === 1 ? '' : 's'}`);
  if (order.as_needed && freq !== 'AS_NEEDED') parts.push('as needed');
  if (order.as_needed_reason?.trim()) parts.push(`for ${order.as_needed_reason.trim()}`);
  return parts.join(' ');
}

/**
 * An order's dosage as FHIR Dosage: dose with its UCUM unit, timing from the frequency and timing codes
 * (with the duration as its bounds), PRN, route and the patient instructions, plus the sig as text.
 */
export function buildDosageInstruction(order: MedicationOrder): Dosage {
  const dose = doseQuantity(order);
  const freq = order.frequency.structured_value as FrequencyTypeCode | null;
  const repeat: TimingRepeat = { ...(freq ? REPEAT[freq] : undefined) };
  const timing = order.medication_timing ?? '';
  if (WHEN[timing]) repeat.when = [...new Set([...(repeat.when ?? []), WHEN[timing]!])] as TimingRepeat['when'];
  if (order.duration_in_days) repeat.boundsDuration = { value: order.duration_in_days, unit: 'days', system: SYSTEM.ucum, code: 'd' };
  const timingText = freq && FREQUENCY_TYPE_INFO[freq] ? FREQUENCY_TYPE_INFO[freq].label : order.frequency.raw_value?.trim();
  const asNeeded = order.as_needed === true || freq === 'AS_NEEDED' || timing === 'AT_ONSET_OF_SYMPTOMS';
  // Dosage.asNeeded[x]: the reason as said when there is one ("pain"), else only the flag (issue 29).
  const reason = order.as_needed_reason?.trim();
  const extraTiming = timing && !WHEN[timing] ? humanize(timing) : null;
  const route = order.route?.trim();
  const routeCode = route ? ROUTES.find(([re]) => re.test(route)) : undefined;
  const text = sigText(order, dose);
  return {
    sequence: 1,
    ...(text ? { text } : {}),
    ...(extraTiming ? { additionalInstruction: [{ text: extraTiming }] } : {}),
    ...(order.instructions?.trim() ? { patientInstruction: order.instructions.trim() } : {}),
    ...(Object.keys(repeat).length || timingText ? { timing: { ...(Object.keys(repeat).length ? { repeat } : {}), ...(timingText ? { code: { text: timingText } } : {}) } } : {}),
    ...(asNeeded ? (reason ? { asNeededCodeableConcept: { text: reason } } : { asNeededBoolean: true }) : {}),
    ...(route ? { route: { ...(routeCode ? { coding: [{ system: SYSTEM.snomed, code: routeCode[1], display: routeCode[2] }] } : {}), text: route } } : {}),
    ...(dose ? { doseAndRate: [{ doseQuantity: dose }] } : {}),
  };
}
