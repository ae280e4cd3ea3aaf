import type { MedicationOrder } from '@/lib/contracts/sessions';
import { DRUG_CONCEPTS } from '../../codesets/builtin/drugs';
import DOSE_RANGES from './dose-ranges.json';

type Measure = 'mass' | 'potency';
interface DoseRange { drug: string; unit: 'mg' | 'mcg' | 'g' | 'unit' | 'IU'; low: number; high: number; per: 'day' | 'week' | 'dose'; iu_per_mcg?: number }

/** Why a dose is implausible for its drug: in a unit the drug is not dosed in, or far outside its usual range. */
export interface ImplausibleDose {
  reason: 'UNIT' | 'HIGH' | 'LOW';
  /** The drug as the table names it ("lisinopril"). */
  drug: string;
  /** The dose as the order states it ("10 g"), and its unit ("g"). */
  said: string;
  saidUnit: string;
  /** The unit the drug is dosed in ("mg"). */
  unit: string;
  /** The drug's usual dose in words ("2.5-80 mg a day"). */
  usual: string;
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

/**
 * Whether a medication order's dose is implausible for its drug, from the curated table in dose-ranges.json
 * (FDA labeling): said in a unit the drug is not dosed in (units of lisinopril, mg of insulin), or, converted
 * to the drug's unit, above the labelled maximum or below a tenth of its lowest strength (10 g of lisinopril,
 * 100 mg of levothyroxine). A gram dose of a drug dosed in mg is judged by its amount: 1 g of acetaminophen is
 * usual. Drugs not in the table, doses in counts or volumes (2 tablets, 5 mL), weight-based doses, doses it
 * cannot read and local routes are not judged: null, never a guess.
 */
export function checkDosePlausibility(order: MedicationOrder): ImplausibleDose | null {
  const range = rangeOf(order.drug_name ?? '');
  if (!range || (order.route && LOCAL_ROUTE.test(order.route))) return null;
  const dose = doseOf(order);
  if (!dose) return null;
  const usual = `${range.low === range.high ? number(range.low) : `${number(range.low)}-${number(range.high)}`} ${LABEL[range.unit]} ${PER[range.per]}`;
  const finding = (reason: ImplausibleDose['reason']): ImplausibleDose => ({
    reason,
    drug: range.drug,
    said: `${number(dose.quantity)} ${LABEL[dose.unit]}`,
    saidUnit: LABEL[dose.unit]!,
    unit: LABEL[range.unit]!,
    usual,
  });

  let amount: number;
  if (dose.measure === range.measure) {
    amount = dose.measure === 'mass' ? (dose.quantity * MASS_MG[dose.unit]!) / MASS_MG[range.unit]! : dose.quantity;
  } else if (dose.measure === 'mass' && range.unit === 'IU' && range.iu_per_mcg) {
    amount = ((dose.quantity * MASS_MG[dose.unit]!) / MASS_MG.mcg!) * range.iu_per_mcg;
  } else {
    return finding('UNIT');
  }
  // A small tolerance, so a dose at the bound written in another unit (0.08 g) is not flagged for rounding.
  if (amount > range.high * 1.000_001) return finding('HIGH');
  if (amount < range.low / 10) return finding('LOW');
  return null;
}
