/**
 * Vital signs the clinician reads out during the examination ("your blood pressure is 128/80, heart
 * rate 72"), written as the labelled values scribes list instead of the spoken clause.
 */

export interface Vital { label: string; value: string }

interface VitalRule { label: string; said: RegExp; value: RegExp; plausible: (v: number) => boolean; unit: string; bare?: { said: RegExp; value: RegExp } }

// Values outside these ranges are a misheard number or something else said near the word, not the vital.
const RULES: VitalRule[] = [
  { label: 'Blood pressure', said: /\b(?:blood pressure|bp)\b/i, value: /^\D{0,45}?\b(\d{2,3})\/(\d{2,3})\b/, plausible: (v) => v >= 60 && v <= 260, unit: ' mmHg' },
  { label: 'Heart rate', said: /\b(?:heart rate|pulse rate|pulse)\b(?!s| ox)/i, value: /^\D{0,25}?\b(\d{2,3})\b(?!\/)/, plausible: (v) => v >= 30 && v <= 220, unit: ' bpm' },
  { label: 'Respiratory rate', said: /\b(?:respiratory rate|respirations|respiration rate|breathing rate)\b/i, value: /^\D{0,25}?\b(\d{1,2})\b(?!\/)/, plausible: (v) => v >= 6 && v <= 60, unit: '' },
  { label: 'Oxygen saturation', said: /\b(?:oxygen saturation|oxygenation|oxygen|o2 sat\w*|saturation|sats|satting|pulse ox\w*)\b/i, value: /^\D{0,40}?\b(\d{2,3})\s?(?:%|percent)/, plausible: (v) => v >= 60 && v <= 100, unit: '%',
    // The room's jargon gives the number alone ("sats 95", "satting 93 on room air"); "oxygen 2 liters" is no saturation.
    bare: { said: /^(?:sats|satting|o2 sat\w*|saturation|pulse ox\w*)$/i, value: /^\s+(?:(?:is|was|are|were|of|at)\s+)?(?:about\s+|around\s+)?(\d{2,3})\b(?!\s*(?:\/|\.\d|liters?\b|l\b))/i } },
  { label: 'Temperature', said: /\b(?:temperature|temp)\b/i, value: /^\D{0,30}?\b(\d{2,3}(?:\.\d)?)\b(?!\/)/, plausible: (v) => (v >= 95 && v <= 107) || (v >= 35 && v <= 42), unit: '' },
];

// Readings from elsewhere (home, the emergency room, a past visit) are history, not today's vitals.
const ELSEWHERE = /\b(?:at home|home readings?|emergency|er|hospital|last (?:time|visit|week|month)|yesterday|at work|pharmacy|cvs|walgreens|been running|has been|have been|used to)\b/i;

/** The vital signs stated in one clause, each once; none when it speaks of readings from elsewhere. */
export function vitalsIn(clause: string): Vital[] {
  if (ELSEWHERE.test(clause)) return [];
  const out: Vital[] = [];
  const text = clause.replace(/(\d+) point (\d)\b/g, '$1.$2');
  for (const r of RULES) {
    // The value follows the nearest naming of the vital ("for his high blood pressure his blood pressure … is 120/70").
    for (const said of text.matchAll(new RegExp(r.said.source, 'gi'))) {
      const after = text.slice(said.index + said[0].length);
      const m = r.value.exec(after) ?? (r.bare?.said.test(said[0]) ? r.bare.value.exec(after) : null);
      if (!m || !r.plausible(Number(m[1]))) continue;
      const air = r.unit === '%' && /^\s*on room air\b/i.test(after.slice(m.index + m[0].length)) ? ' on room air' : '';
      out.push({ label: r.label, value: `${m[2] ? `${m[1]}/${m[2]}` : m[1]}${r.unit}${air}` });
      break;
    }
  }
  return out;
}

/**
 * "your blood pressure's a little elevated today, 156 over 94" → "Elevated at 156/94 mmHg.", and the text
 * left once that is said; a pressure said to be high without a reading is written "Elevated."
 */
export function elevatedPressure(sentence: string): { value: string; rest: string } | undefined {
  if (ELSEWHERE.test(sentence)) return undefined;
  const m = /\bblood pressure(?:'s)?\b[^.\d]{0,50}?\b(?:elevated|high)\b(?:[^.\d]{0,15}?\b(\d{2,3})\/(\d{2,3})\b)?/i.exec(sentence);
  if (!m || /\b(?:not|no|isn't|wasn't|nor)\b/i.test(m[0])) return undefined;
  const reading = m[1] && Number(m[1]) >= 60 && Number(m[1]) <= 260 ? ` at ${m[1]}/${m[2]} mmHg` : '';
  return { value: `Elevated${reading}`, rest: sentence.replace(m[0], ' ').replace(/\s+/g, ' ').trim() };
}
