import { FREQUENCY_TYPE_INFO, type FrequencyTypeCode } from '@/lib/info';
import type { MedicationOrder, StructuredData, SummarySection } from '@/lib/contracts/sessions';
import type { SummaryMedicine, VisitSummaryResponse } from '@/lib/contracts/visit-summary';
import type { ClinicSettings } from '@/lib/contracts/partners';
import { conditionName, plainWords, sentencesOf } from './plain-language';
import { readingGrade } from './reading-grade';
import { agreeWithYou, fitForPatient } from './second-person';

/** Sections a patient's plan is read from: assessment and plan, plan of care, instructions, and any titled so. */
const PLAN_LOINCS = new Set(['51847-2', '18776-5', '69730-0', '8653-8', '10183-2']);
const isPlanSection = (s: SummarySection) => PLAN_LOINCS.has(s.loinc_code) || /\b(plan|instruction|follow)/i.test(s.title);

// The case may come first: "If you have any chest pain, go to the emergency room right away."
const GET_HELP = /\b(return|come back|call|seek|go to|get care|emergency|er\b|911|urgent)\b.*\b(if|when|should)\b|\bif\b.*\b(worse|last|persist|does not|doesn't|not better|not improve|develop|new)\b|\bif\b.*\b(go to|call|seek|emergency|911|urgent care)\b/i;
const FOLLOW_UP = /\bfollow[- ]?up\b|\brecheck\b|\bre-?evaluat|\bsee (?:you|me|us|him|her|the patient)\b.*\bin\b|\breturn (?:to (?:the )?clinic )?in\b|\bcome back in\b|\bnext (?:visit|appointment)\b|\bschedule\b|\bappointment\b/i;

/** A plan step tells the patient to do something; a sentence without one is the clinician's reasoning. */
const ACTION = /\b(start|take|stop|keep|continue|drink|rest|use|avoid|call|return|come|follow|get|apply|eat|limit|check|schedule|try|increase|decrease|reduce|please|will|should|need|refer|order|walk|sleep|wear|ice|elevate|you)\b/i;

/** "Hypertension: well controlled, continue lisinopril" → the part after the problem label. */
const afterLabel = (s: string) => s.replace(/^[^:]{2,60}:\s+(?=\S)/, '');

const CHANGE: Record<string, SummaryMedicine['change'] | undefined> = {
  NEW: 'START',
  ACTIVE: 'KEEP',
  CONTINUED: 'KEEP',
  CHANGED: 'CHANGE',
  REFILLED: 'REFILL',
  ON_HOLD: 'PAUSE',
  DISCONTINUED: 'STOP',
};
const VERB: Record<SummaryMedicine['change'], string> = {
  START: 'Start taking',
  KEEP: 'Keep taking',
  CHANGE: 'Change how you take',
  STOP: 'Stop taking',
  REFILL: 'Refill',
  PAUSE: 'Stop taking for now',
};

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
}

function dose(o: MedicationOrder): string | null {
  if (o.dosage.quantity != null && o.dosage.unit) return `${o.dosage.quantity} ${o.dosage.unit.toLowerCase().replace(/_/g, ' ')}`;
  return o.dosage.raw_value?.trim() || null;
}

function howToTake(o: MedicationOrder): string | null {
  const parts: string[] = [];
  const freq = o.frequency.structured_value ? FREQUENCY_TYPE_INFO[o.frequency.structured_value as FrequencyTypeCode]?.label : undefined;
  const often = freq ? lowerFirst(freq) : o.frequency.raw_value?.trim();
  if (often) parts.push(plainWords(often));
  if (o.medication_timing) parts.push(o.medication_timing.toLowerCase().replace(/_/g, ' '));
  if (o.route) parts.push(plainWords(/^(oral|po|by mouth)$/i.test(o.route) ? 'by mouth' : o.route.toLowerCase().replace(/_/g, ' ')));
  if (o.duration_in_days) parts.push(`for ${o.duration_in_days} day${o.duration_in_days === 1 ? '' : 's'}`);
  return parts.length ? parts.join(', ') : null;
}

function medicine(o: MedicationOrder): SummaryMedicine | null {
  const change = CHANGE[o.status];
  if (!change || !o.drug_name.trim()) return null;
  const drug = lowerFirst(o.drug_name.trim());
  const d = dose(o);
  const how = change === 'STOP' || change === 'PAUSE' ? null : howToTake(o);
  const extra = o as MedicationOrder & { as_needed?: boolean; as_needed_reason?: string | null; previous_dosage?: { quantity: number | null; unit: string | null; raw_value: string | null } | null };
  const before = extra.previous_dosage && change === 'CHANGE' ? dose({ ...o, dosage: extra.previous_dosage }) : null;
  let text = before && d ? `Change ${drug} from ${before} to ${d}.` : `${VERB[change]} ${drug}${d && change !== 'STOP' ? ` ${d}` : ''}.`;
  // An as-needed order's frequency is often the as-needed itself, which the next sentence says: "Take it when you need
  // it. Take it only when you need it." (a browser trial, 7 Dec).
  const often = extra.as_needed ? how?.replace(/(?:^|,\s*)(?:when you need it|as needed)(?=,|$)/gi, '').replace(/^,\s*/, '') || null : how;
  if (often) text += ` Take it ${often}.`;
  if (extra.as_needed && change !== 'STOP') text += ` Take it only when you need it${extra.as_needed_reason ? ` for ${plainWords(extra.as_needed_reason)}` : ''}.`;
  // The engine also writes an as-needed order's words into its instructions ("as needed for pain"): said once.
  const instructions = extra.as_needed ? o.instructions?.replace(/\b(?:as needed|when needed|as required|prn)(?:\s+for\s+[^.,;]+)?/gi, '').replace(/^[\s.,;]+$/, '') : o.instructions;
  if (instructions?.trim()) text += ` ${sentencesOf(plainWords(instructions)).join(' ')}`;
  return { change, drug, dose: d, how_to_take: how, text };
}

/**
 * A diagnosis the note itself calls new. Nothing else in the structured data tells a new condition from one the
 * patient already had, so any other is only what was talked about: "we found" would read as news to someone
 * whose diabetes was managed at this visit.
 */
const NEW_DIAGNOSIS = /(?<!\b(?:no|not)\s(?:\w+\s)?)\b(?:new(?:ly)?[- ](?:diagnos\w*|onset)|diagnosed (?:today|at this visit))\b/i;

function about(structured: StructuredData, chiefComplaint: string | null): string[] {
  const out: string[] = [];
  if (chiefComplaint?.trim()) out.push(`You came in for ${lowerFirst(plainWords(chiefComplaint.trim())).replace(/[.\s]+$/, '')}.`);
  const seen = new Set<string>();
  for (const dx of structured.diagnoses.values) {
    const d = dx.codes.find((c) => c.type === 'ICD10') ?? dx.codes[0];
    if (!d?.description) continue;
    const name = conditionName(d.description);
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(NEW_DIAGNOSIS.test(dx.diagnosis_note) ? `We found a new condition: ${lowerFirst(name)}.` : `We talked about your ${lowerFirst(name)}.`);
  }
  return out;
}

/** Additive structured data (issue 29): absent on notes written before it. */
type WithAdditions = StructuredData & {
  allergies?: { values: Array<{ substance: string; reaction: string | null; verification?: string }> };
  orders: StructuredData['orders'] & { service_orders?: { values: Array<{ name: string; category?: string; timing: string | null }> } };
};

function allergyLines(structured: StructuredData): string[] {
  return ((structured as WithAdditions).allergies?.values ?? [])
    .filter((a) => a.substance.trim())
    .map((a) => `You are allergic to ${lowerFirst(a.substance.trim())}${a.reaction ? `. Reaction: ${lowerFirst(plainWords(a.reaction)).replace(/[.\s]+$/, '')}` : ''}.`);
}

function testLines(structured: StructuredData): string[] {
  return ((structured as WithAdditions).orders.service_orders?.values ?? [])
    .filter((o) => o.name.trim())
    .map((o) => `${o.category === 'IMAGING' ? 'Imaging' : 'Lab test'}: ${o.name.trim()}${o.timing ? `, ${plainWords(o.timing)}` : ''}.`);
}

const heading = (title: string, items: string[], empty: string) => [title, ...(items.length ? items.map((i) => `- ${i}`) : [`- ${empty}`])].join('\n');

/**
 * The after-visit summary of one note: what the visit was about (chief complaint and coded diagnoses),
 * the plan sentences, each medicine change from the structured orders, follow-up and when to get help,
 * all in plain words. Plan sentences that name an ordered medicine are left to the medicine list.
 */
export function buildVisitSummary(
  sessionId: string,
  summary: SummarySection[],
  structured: StructuredData,
  chiefComplaint: string | null,
  clinic: ClinicSettings | null = null,
): VisitSummaryResponse {
  // Orders still missing a dose are medicines all the same: the patient is told what to do with each.
  const orders = [...structured.orders.medication_orders.values, ...(structured.orders.medication_orders.partial_values ?? [])];
  const medicines = orders.map(medicine).filter((m, i, all): m is SummaryMedicine => m !== null && all.findIndex((x) => x?.drug === m.drug) === i);
  const allergies = allergyLines(structured);
  const tests = testLines(structured);
  const drugWords = medicines.map((m) => m.drug.toLowerCase().split(/\s+/)[0]!).filter((w) => w.length > 2);
  const plan: string[] = [];
  const followUp: string[] = [];
  const getHelp: string[] = [];
  const seen = new Set<string>();
  for (const section of summary.filter(isPlanSection)) {
    for (const raw of sentencesOf(section.content).map(afterLabel)) {
      // The note's one-liner ("presents to the clinic today for …") is what "Why you came in" already says.
      if (!fitForPatient(raw) || /\bpresents? (?:to the clinic )?today for\b/i.test(raw)) continue;
      const sentence = agreeWithYou(sentencesOf(plainWords(raw))[0] ?? '').replace(/\b(follow up|see you) with me\b/gi, '$1 with us');
      const key = sentence.toLowerCase();
      if (!sentence || seen.has(key)) continue;
      seen.add(key);
      if (GET_HELP.test(raw)) getHelp.push(sentence);
      else if (FOLLOW_UP.test(raw)) followUp.push(sentence);
      else if (drugWords.some((w) => raw.toLowerCase().includes(w))) continue;
      else if (ACTION.test(sentence)) plan.push(sentence);
    }
  }
  const aboutLines = about(structured, chiefComplaint);
  // Medicines, tests and a follow-up are the patient's plan too: beside any of them, an empty plan part would only say there is none.
  const planElsewhere = medicines.length > 0 || tests.length > 0 || followUp.length > 0;
  const text = [
    'Your visit summary',
    heading('Why you came in', aboutLines, 'Ask your clinic if you have questions about this visit.'),
    ...(plan.length || !planElsewhere ? [heading('Your plan', plan, 'No steps were set for you at this visit. Ask your clinic if you are not sure what to do next.')] : []),
    heading('Your medicines', medicines.map((m) => m.text), 'No medicine changes.'),
    heading('Your allergies', allergies, 'No allergies are in your record from this visit.'),
    heading('Tests ordered', tests, 'No tests were ordered.'),
    heading('Follow-up', followUp, 'No follow-up visit was set. Call your clinic if you have questions.'),
    // A precaution the recogniser garbled is left out of the note (unclear.ts), so the fallback must not be weaker than
    // any the visit gave: it names the emergency number too.
    heading('When to get help', getHelp, 'Call your clinic if you feel worse or have new problems. In an emergency, call 911.'),
    ...(clinic ? [[clinic.name, clinic.phone ? `Phone: ${clinic.phone}` : '', clinic.address ?? '', clinic.website ?? ''].filter(Boolean).join('\n')] : []),
  ].join('\n\n');
  const body = [...aboutLines, ...plan, ...medicines.map((m) => m.text), ...allergies, ...tests, ...followUp, ...getHelp].join('\n');
  return {
    ambient_session_id: sessionId,
    about: aboutLines,
    plan,
    medicines,
    follow_up: followUp,
    get_help: getHelp,
    allergies,
    tests,
    clinic: clinic ? { name: clinic.name, phone: clinic.phone ?? null } : null,
    text,
    reading_grade: readingGrade(body),
  };
}
