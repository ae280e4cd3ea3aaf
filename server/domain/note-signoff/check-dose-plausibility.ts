import type { MedicationOrder } from '@/lib/contracts/sessions';
import { DRUG_CONCEPTS } from '../../codesets/builtin/drugs';
import DOSE_RANGES from './dose-ranges.json';
import { readDoseFrequency, type DoseFrequency } from './read-dose-frequency';

type Measure = 'mass' | 'potency';
/**
 * A once-a-week drug's daily regimen: its labelled daily doses (alendronate 5, 10 or 40 mg), or a range of the day's
 * amount (vitamin D 400-10,000 IU a day), and whether only by mouth (not its injection).
 */
interface DailyRegimen { doses?: number[]; low?: number; high?: number; by_mouth?: boolean; not_names?: string[] }
interface DoseRange {
  drug: string;
  unit: 'mg' | 'mcg' | 'g' | 'unit' | 'IU';
  low: number;
  high: number;
  per: 'day' | 'week' | 'dose';
  iu_per_mcg?: number;
  daily?: DailyRegimen;
}

/**
 * Why a dose is implausible for its drug: in a unit the drug is not dosed in, far outside its usual range, above
 * its daily maximum at the order's frequency (HIGH with a total), or a once-a-week drug ordered more often.
 */
export interface ImplausibleDose {
  reason: 'UNIT' | 'HIGH' | 'LOW' | 'FREQUENCY';
  /** The drug as the table names it ("lisinopril"). */
  drug: string;
  /** The dose as the order states it ("10 g"), and its unit ("g"). */
  said: string;
  saidUnit: string;
  /** The unit the drug is dosed in ("mg"). */
  unit: string;
  /** The drug's usual dose in words ("2.5-80 mg a day"); for FREQUENCY, its weekly dose ("7.5-30 mg a week"). */
  usual: string;
  /** When the order's frequency made the finding: the frequency in words ("four times a day"). */
  frequency?: string;
  /** The total the order reaches at that frequency ("4000 mg a day", "105 mg a week"). */
  total?: string;
  /** For FREQUENCY, the drug's daily regimen when it has one ("daily (5, 10 or 40 mg a day)"). */
  alsoDaily?: string;
}

// Mass in mg, so a dose said in g, mg, mcg or ng is compared in the drug's own unit.
const MASS_MG: Record<string, number> = { g: 1000, mg: 1, mcg: 0.001, ng: 0.000_001 };
/** Unit codes of the info list and the words and abbreviations engines and speakers use for them. */
const UNIT_WORDS: Array<[RegExp, string, Measure]> = [
  [/^(g|gm|gms|grams?|grammes?)$/, 'g', 'mass'],
  [/^(mg|mgs|milligrams?|milligrammes?)$/, 'mg', 'mass'],
  [/^(mcg|mcgs|ug|µg|μg|micrograms?|microgrammes?)$/, 'mcg', 'mass'],
  [/^(ng|nanograms?)$/, 'ng', 'mass'],
  [/^(units?|u)$/, 'unit', 'potency'],
  [/^(iu|ius|international units?)$/, 'IU', 'potency'],
];
const LABEL: Record<string, string> = { g: 'g', mg: 'mg', mcg: 'mcg', ng: 'ng', unit: 'units', IU: 'IU' };

/**
 * Topical, eye, ear, transdermal and vaginal orders dose a preparation (grams of gel, a patch's rate), not the
 * drug as the table does, so they are not judged.
 */
const LOCAL_ROUTE = /\b(topical|cutaneous|skin|transdermal|patch|ophthalmic|eye|otic|ear|vaginal)/i;
// Words that may follow the ingredient in an order's name without making it another product.
const NAME_TAIL =
  /^(?:\s+(?:[\d.,]+(?:mg|mcg|g|ml|%)?|mg|mcg|g|ml|units?|iu|%|hcl|hydrochloride|sodium|potassium|calcium|magnesium|besylate|maleate|succinate|tartrate|fumarate|mesylate|citrate|sulfate|phosphate|acetate|hyclate|monohydrate|anhydrous|trihydrate|dihydrate|oral|tablets?|capsules?|chewable|solution|suspension|injection|injectable|delayed|extended|immediate|release|er|xr|xl|sr|cr|la|dr|ir|hr|odt|disintegrating|pen|prefilled|syringe|inhaler|inhalation|aerosol|metered|nebuli[sz]er|ud))*\s*$/;

const RANGES = (DOSE_RANGES.drugs as DoseRange[]).map((r) => ({ ...r, measure: (r.unit === 'unit' || r.unit === 'IU' ? 'potency' : 'mass') as Measure }));
/** Every name an order may give a table drug by: its RxNorm ingredient name and the brand or spoken names of the built-in vocabulary. */
const NAMES: Array<[name: string, range: (typeof RANGES)[number]]> = RANGES.flatMap((r) => {
  const concept = DRUG_CONCEPTS.find(([ingredient]) => ingredient === r.drug);
  return [r.drug, ...(concept?.slice(1) ?? [])].map((n) => [n, r] as [string, typeof r]);
}).sort((a, b) => b[0].length - a[0].length);

function rangeOf(drugName: string) {
  const name = drugName.toLowerCase().replace(/\s+/g, ' ').trim();
  // Only strengths, salts and forms may follow the name: a combination product ("amoxicillin / clavulanate",
  // "losartan-hydrochlorothiazide") is dosed as a whole and is not in the table.
  for (const [n, r] of NAMES) if (name.startsWith(n) && NAME_TAIL.test(name.slice(n.length))) return r;
  return undefined;
}

function unitOf(raw: string | null): { unit: string; measure: Measure } | null {
  const word = (raw ?? '').toLowerCase().replace(/[.\s]+$/, '').trim();
  for (const [re, unit, measure] of UNIT_WORDS) if (re.test(word)) return { unit, measure };
  return null;
}

/**
 * The dose as stored, else as read from its words ("10 grams", "0.5mg", "1,000 mcg"). A coded unit that is a
 * count, a volume or weight-based (TAB, ML, MG_PER_KG) is not a dose of the drug's mass: null.
 */
function doseOf(order: MedicationOrder): { quantity: number; unit: string; measure: Measure } | null {
  const { quantity, unit, raw_value } = order.dosage ?? { quantity: null, unit: null, raw_value: null };
  const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (unit?.trim()) {
    const coded = unitOf(unit);
    if (!coded) return null;
    if (positive(quantity)) return { quantity, ...coded };
  }
  const raw = (raw_value ?? '').toLowerCase();
  if (/\/|\bper (?:kg|kilo|m2|square)/.test(raw)) return null;
  const m = /(\d[\d,]*(?:\.\d+)?|\.\d+)\s*([a-zµμ][a-zµμ ]*)/.exec(raw);
  if (!m) return null;
  const said = Number(m[1]!.replace(/,/g, ''));
  const words = m[2]!.trim().split(/\s+/);
  // "10 international units daily": the longest run of words that is a unit.
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const u = unitOf(words.slice(0, n).join(' '));
    if (u && positive(said) && (!unit?.trim() || u.unit === unitOf(unit)?.unit)) return { quantity: said, ...u };
  }
  return null;
}

const number = (n: number) => String(Number(n.toPrecision(6)));
const PER: Record<DoseRange['per'], string> = { day: 'a day', week: 'a week', dose: 'a dose' };
// A small tolerance, so a dose at the bound written in another unit (0.08 g) is not flagged for rounding.
const above = (amount: number, bound: number) => amount > bound * 1.000_001;
const same = (a: number, b: number) => Math.abs(a - b) <= b * 0.000_001;
const list = (ns: number[]) => (ns.length > 1 ? `${ns.slice(0, -1).map(number).join(', ')} or ${number(ns.at(-1)!)}` : number(ns[0]!));
/** A daily regimen's least and most a day, and its doses in words ("5, 10 or 40", "400-10000"). */
const leastOf = (d: DailyRegimen) => d.low ?? Math.min(...(d.doses ?? []));
const mostOf = (d: DailyRegimen) => d.high ?? Math.max(...(d.doses ?? []));
const regimenWords = (d: DailyRegimen) => (d.doses ? list(d.doses) : `${number(d.low!)}-${number(d.high!)}`);
/** Words of a route or a product name that say the order is injected, so a by-mouth regimen is not its own. */
const INJECTED = /\b(inject\w*|subcut\w*|subq|sub-q|sc|sq|intramuscular|im|intravenous|iv|pen|syringe|auto-?injector)\b/i;

/** The drug's daily regimen the order may be: none when the drug has none, or it is by mouth and the order is injected. */
function dailyRegimenOf(range: DoseRange, order: MedicationOrder): DailyRegimen | undefined {
  const name = (order.drug_name ?? '').toLowerCase();
  if (!range.daily || range.daily.not_names?.some((n) => name.includes(n))) return undefined;
  return range.daily.by_mouth && INJECTED.test(`${order.route ?? ''} ${name}`) ? undefined : range.daily;
}

const COUNT_FORM = /^(?:(tablet|tab|pill)|(capsule|cap))s?$/;
const COUNT_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
/**
 * How many tablets, capsules or pills a dose is, when the order's words give the coded dose as one tablet's
 * strength: the strength said with the count taken a dose, as the engines write it ("500 mg 2 tablets", "500 mg,
 * 2 capsules"), or with the form alone ("500 mg tablets": the count is not said, taken as one). Anything else
 * ("2 tablets of 500 mg", "1000 mg", "500 mg 1/2 tablet") does not make a tablet's strength clear: undefined.
 */
function tabletsOf(order: MedicationOrder, dose: { quantity: number; unit: string }): { count: number; said?: string } | undefined {
  const m = /^\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*([a-zµμ]+)\.?\s*,?\s*(?:(\d+(?:\.\d+)?|one|two|three|four)\s+)?([a-z]+)\b/.exec(
    (order.dosage?.raw_value ?? '').toLowerCase(),
  );
  const form = m && COUNT_FORM.exec(m[4]!);
  if (!m || !form || unitOf(m[2]!)?.unit !== dose.unit || !same(Number(m[1]!.replace(/,/g, '')), dose.quantity)) return undefined;
  if (!m[3]) return { count: 1 };
  const count = COUNT_WORDS[m[3]] ?? Number(m[3]);
  if (!(count > 0)) return undefined;
  return { count, said: `${number(count)} ${form[1] ? 'tablet' : 'capsule'}${count === 1 ? '' : 's'}` };
}

/**
 * A ceiling the order states, in the drug's unit: an amount ("not to exceed 4 g a day"), or a count of tablets
 * when a tablet's strength is clear ("500 mg 2 tablets", at most 8 tablets a day: 4000 mg). Undefined when it
 * states none, one in another measure, or tablets of a strength the order does not make clear.
 */
function ceilingOf(frequency: DoseFrequency, range: (typeof RANGES)[number], tablet: number | undefined): number | undefined {
  if (frequency.maxAmount && COUNT_FORM.test(frequency.maxAmount.unit)) return tablet === undefined ? undefined : frequency.maxAmount.quantity * tablet;
  const cap = frequency.maxAmount && unitOf(frequency.maxAmount.unit);
  if (!cap || cap.measure !== range.measure) return undefined;
  return cap.measure === 'mass' ? (frequency.maxAmount!.quantity * MASS_MG[cap.unit]!) / MASS_MG[range.unit]! : frequency.maxAmount!.quantity;
}

/**
 * Whether a medication order's dose is implausible for its drug, from the curated table in dose-ranges.json
 * (FDA labeling): said in a unit the drug is not dosed in (units of lisinopril, mg of insulin), or, converted
 * to the drug's unit, above the labelled maximum or below a tenth of its lowest strength (10 g of lisinopril,
 * 100 mg of levothyroxine). A gram dose of a drug dosed in mg is judged by its amount: 1 g of acetaminophen is
 * usual. With the order's frequency (read-dose-frequency.ts), a drug with a daily maximum is judged by the most
 * the order allows in a day (metformin 1000 mg four times a day is 4000 mg), and a once-a-week drug ordered more
 * often is flagged (methotrexate 15 mg daily, vitamin D 50,000 IU daily) unless the dose is one of its daily
 * regimen's (alendronate 10 mg daily) or within its daily range (vitamin D 400-10,000 IU a day). A strength said
 * with a count of tablets ("500 mg 2 tablets") is that many tablets of it, and a stated cap in tablets is that many
 * times the strength. Drugs not in the table, doses in counts or volumes alone (2 tablets, 5 mL), weight-based
 * doses, doses it cannot read and local routes are not judged, nor a frequency it cannot read: null, never a guess.
 */
export function checkDosePlausibility(order: MedicationOrder): ImplausibleDose | null {
  const range = rangeOf(order.drug_name ?? '');
  if (!range || (order.route && LOCAL_ROUTE.test(order.route))) return null;
  const dose = doseOf(order);
  if (!dose) return null;
  const unit = LABEL[range.unit]!;
  const frequency = readDoseFrequency(order);
  const labelled = `${range.low === range.high ? number(range.low) : `${number(range.low)}-${number(range.high)}`} ${unit} ${PER[range.per]}`;
  const regimen = dailyRegimenOf(range, order);
  // Said once a week or less, a drug with a daily regimen too is judged by its weekly range alone.
  const daily = regimen && !(frequency?.perDay != null && frequency.perDay * 7 <= 1.000_001) ? regimen : undefined;
  const tablets = tabletsOf(order, dose);
  const finding = (reason: ImplausibleDose['reason'], more: Partial<ImplausibleDose> = {}): ImplausibleDose => ({
    reason,
    drug: range.drug,
    said: `${number(dose.quantity)} ${LABEL[dose.unit]}${tablets?.said ? ` ${tablets.said}` : ''}`,
    saidUnit: LABEL[dose.unit]!,
    unit,
    usual: daily ? `${labelled}, or ${regimenWords(daily)} ${unit} a day${daily.by_mouth ? ' by mouth' : ''}` : labelled,
    ...more,
  });

  // One tablet's strength, or the dose's, in the drug's unit; the dose is that many tablets of it.
  let strength: number;
  if (dose.measure === range.measure) {
    strength = dose.measure === 'mass' ? (dose.quantity * MASS_MG[dose.unit]!) / MASS_MG[range.unit]! : dose.quantity;
  } else if (dose.measure === 'mass' && range.unit === 'IU' && range.iu_per_mcg) {
    strength = ((dose.quantity * MASS_MG[dose.unit]!) / MASS_MG.mcg!) * range.iu_per_mcg;
  } else {
    return finding('UNIT');
  }
  const amount = strength * (tablets?.count ?? 1);
  if (above(amount, daily ? Math.max(range.high, mostOf(daily)) : range.high)) return finding('HIGH');
  // A range of daily amounts covers a small dose said once a week too (vitamin D 1000 IU weekly is not far below 50,000 IU).
  const least = Math.min(range.low, ...(daily ? [leastOf(daily)] : []), ...(regimen?.low !== undefined ? [regimen.low] : []));
  if (amount < least / 10) return finding('LOW');
  if (!frequency) return null;

  if (range.per === 'day') {
    const ceiling = ceilingOf(frequency, range, tablets ? strength : undefined);
    const scheduled = frequency.perDay === null ? Infinity : amount * frequency.perDay;
    const most = Math.min(scheduled, ceiling ?? Infinity);
    if (!Number.isFinite(most) || !above(most, range.high)) return null;
    const words = [frequency.words, ceiling !== undefined && ceiling < scheduled ? frequency.maxAmount!.words : ''].filter(Boolean).join(', ');
    return finding('HIGH', { frequency: words, total: `${frequency.asNeeded ? 'up to ' : ''}${number(most)} ${unit} a day` });
  }
  if (range.per !== 'week' || frequency.perDay === null || frequency.perDay * 7 <= 1.000_001) return null;
  // More often than once a week: plausible only as the drug's daily regimen, a labelled daily dose taken each day,
  // or a day's amount within its daily range (vitamin D 1000 IU every other day; not 50,000 IU twice a week).
  const perDay = amount * frequency.perDay;
  const asDaily = daily && frequency.perDay >= 1;
  if (daily?.doses ? asDaily && daily.doses.some((d) => same(perDay, d)) : daily && !above(perDay, mostOf(daily))) return null;
  return finding('FREQUENCY', {
    usual: labelled,
    frequency: frequency.words,
    total: `${number(perDay * 7)} ${unit} a week${asDaily ? ` (${number(perDay)} ${unit} a day)` : ''}`,
    ...(daily ? { alsoDaily: `daily${daily.by_mouth ? ' by mouth' : ''} (${regimenWords(daily)} ${unit} a day)` } : {}),
  });
}
