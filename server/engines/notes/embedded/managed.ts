/**
 * Problems managed in the visit but never introduced in the plan talk: "are you still taking metformin for
 * your diabetes?" … "continue metformin" manages diabetes, so diabetes goes into the assessment and plan
 * (issue 27). A condition is added only when the visit names it (the patient's own, not negated or a
 * relative's) and this visit orders a drug for it, or the clinician framed the visit on it. The plan
 * talk filed under no problem is then filed under the problem its drug or words name.
 */
import type { MedicationOrder } from '../types';
import { conditionMentions, type ConditionMention } from './analyze';
import { stripFiller, type NoteContext, type Piece } from './compose';
import { CONCEPT_NAME, tokenize } from './lexicon';
import { findDrugs } from './meds';
import { fileUnder, isDiagnosisCode, problemName, type Problem } from './plan';
import { capitalize, clinicianToNote, finishSentence } from './text';

/** What a drug is commonly ordered for, by ICD-10-CM category; a condition must still be named in the visit. */
const INDICATIONS: Array<[RegExp, string[]]> = [
  [/^(lisinopril|losartan|amlodipine|hydrochlorothiazide|chlorthalidone|metoprolol|valsartan|olmesartan|irbesartan|benazepril|enalapril|ramipril|nifedipine|atenolol|clonidine|hydralazine|telmisartan)/, ['I10', 'I11', 'I12', 'I13']],
  [/^(metformin|insulin|glipizide|glyburide|glimepiride|sitagliptin|empagliflozin|dapagliflozin|canagliflozin|semaglutide|liraglutide|dulaglutide|pioglitazone|tirzepatide)/, ['E11', 'E10', 'E13']],
  [/^(atorvastatin|simvastatin|rosuvastatin|pravastatin|lovastatin|ezetimibe)/, ['E78']],
  [/^(levothyroxine|liothyronine)/, ['E03']],
  [/^(furosemide|bumetanide|torsemide|spironolactone|carvedilol|sacubitril)/, ['I50']],
  [/^(omeprazole|pantoprazole|esomeprazole|lansoprazole|famotidine)/, ['K21']],
  [/^(sertraline|fluoxetine|escitalopram|citalopram|bupropion|venlafaxine|duloxetine|paroxetine)/, ['F32', 'F33', 'F41']],
  [/^(albuterol|fluticasone|budesonide|montelukast|tiotropium)/, ['J45', 'J44']],
  // Antiseizure drugs prescribed for little else; carbamazepine, topiramate, lamotrigine and valproate also treat pain,
  // migraine or mood, so they do not say epilepsy.
  [/^(levetiracetam|phenytoin)/, ['G40']],
  [/^(acetaminophen|ibuprofen|naproxen|meloxicam|diclofenac|celecoxib)/, ['M15', 'M16', 'M17', 'M18', 'M19']],
];
// Conditions a visit follows up and manages over time; a symptom or injury framed as the reason is the complaint's business.
export const CHRONIC = /^(E0[89]|E1[013]|E03|E05|E66|E78|I1[0-6]|I2[05]|I4[28]|I50|J4[45]|F3[1-3]|F41|F20|N18|G47\.33|G40|M06|M1[5-9]|K21|G20|G30|G35|B20|K50|K51)/;
const MANAGED = new Set(['NEW', 'CHANGED', 'CONTINUED', 'REFILLED', 'DISCONTINUED']);
const FRAMING = /\b(?:follow(?:ing)?(?: |-)up (?:on|for|of)|here (?:today )?for|presents? (?:today )?(?:for|with)|check(?:ing)? (?:in )?on)\b/i;

function framedAt(m: ConditionMention): boolean {
  const cue = FRAMING.exec(m.sentence.text);
  if (!cue) return false;
  const after = tokenize(m.sentence.text.slice(cue.index + cue[0].length));
  const at = m.sentence.tokens.length - after.length;
  return m.start >= at && m.start - at <= 3;
}

const category = (code: string) => code.slice(0, 3);
// "your history of high blood pressure", "your high blood pressure in the past": history, not this visit's assessment.
const historyWord = (m: ConditionMention) => /\b(?:history|past|previous|used to|had)\b/.test(m.sentence.tokens.slice(Math.max(0, m.start - 5), m.end + 4).join(' '));
function indicated(drug: string): string[] {
  return INDICATIONS.find(([re]) => re.test(drug))?.[1] ?? [];
}

export function addManagedProblems(ctx: NoteContext, problems: Problem[], orphan: Piece[], orders: MedicationOrder[]): void {
  const { analysis } = ctx;
  const has = (code: string) => problems.some((p) => p.code && category(p.code) === category(code));
  const named = new Map<string, ConditionMention[]>();
  for (const s of analysis.sentences)
    for (const m of conditionMentions(s, { measured: true }))
      if (!m.negated && !m.family && isDiagnosisCode(m.code) && CHRONIC.test(m.code)) named.set(category(m.code), [...(named.get(category(m.code)) ?? []), m]);
  const managed = orders.filter((o) => MANAGED.has(o.status));
  // What each drug is said to be for where the clinician orders it in the plan: the categories named beside it. Read
  // once here, not once per condition below.
  const saidFor = new Map<string, Set<string>>();
  for (const s of analysis.sentences) {
    if (s.i < analysis.planStart || s.role !== 'CLINICIAN') continue;
    const cats = conditionMentions(s).filter((m) => !m.negated && !m.family).map((m) => category(m.code));
    for (const d of findDrugs(s.text)) for (const c of cats) saidFor.set(d.ingredient, (saidFor.get(d.ingredient) ?? new Set<string>()).add(c));
  }
  // Drugs named in the visit outside allergy talk: what the patient takes or is told to take.
  const taken = [...new Set(analysis.sentences.filter((s) => !s.allergy).flatMap((s) => findDrugs(s.text).map((d) => d.ingredient)))].filter((d) => !analysis.allergens.has(d));
  for (const [cat, mentions] of named) {
    if (has(cat)) continue;
    // A drug ordered under another problem of the visit and said with what it is for there ("use your albuterol … to help
    // with the shortness of breath", under the heart failure) treats that problem: it does not make a condition named
    // elsewhere one. A bare "continue the metformin", said after the knee, still manages the diabetes.
    const elsewhere = (o: MedicationOrder) =>
      o.linked_diagnosis_codes.some((c) => category(c) !== cat) && [...(saidFor.get(o.drug_name) ?? [])].some((c) => c !== cat);
    const byDrug = managed.find((o) => (indicated(o.drug_name).includes(cat) && !elsewhere(o)) || mentions.some((m) => findDrugs(m.sentence.text).some((d) => d.ingredient === o.drug_name)));
    // Framed: named just after the clinician's "following up on" / "here for", not anywhere in a one-liner that has one.
    const framed = mentions.some((m) => !m.byMeasure && m.sentence.role === 'CLINICIAN' && m.sentence.i < analysis.examStart && framedAt(m));
    // A pressure only said to be raised is hypertension when a drug for hypertension is ordered in the visit, or is one
    // the patient takes: "still high" on lisinopril is hypertension assessed, whether or not the dose changes.
    const byName = mentions.filter((m) => !m.byMeasure);
    // Said raised by the clinician, not "he follows you for your blood pressure".
    const saidRaised = mentions.find((m) => m.byMeasure && m.sentence.role === 'CLINICIAN' && !m.sentence.question && !/^for\b/.test(m.surface));
    const onDrugFor = taken.some((d) => indicated(d).includes(cat));
    // Told as the patient's by the clinician ("your high blood pressure is close to goal"), not asked, while the patient
    // takes a drug for it: assessed, as a raised pressure on lisinopril is.
    const toldAsTheirs = onDrugFor ? byName.find((m) => m.sentence.role === 'CLINICIAN' && !m.sentence.question && m.sentence.tokens[m.start - 1] === 'your' && !historyWord(m)) : undefined;
    const onDrug = ((!byName.length && !!saidRaised) || !!toldAsTheirs) && onDrugFor;
    if (!byName.length && !(byDrug && indicated(byDrug.drug_name).includes(cat)) && !onDrug) continue;
    if (!byDrug && !framed && !onDrug) continue;
    const m = toldAsTheirs ?? byName[0] ?? mentions[0];
    // Known only from the clinician's words that it is raised, those words are its assessment, with their evidence.
    const raised = onDrug && !byDrug ? (toldAsTheirs ?? saidRaised) : undefined;
    const reasoning: Piece[] = raised ? [{ text: finishSentence(capitalize(clinicianToNote(stripFiller(raised.sentence.text), analysis.sex))), src: [raised.sentence.tid] }] : [];
    problems.push({ code: m.code, name: byName.length ? problemName(m) : capitalize(CONCEPT_NAME.get(m.code) ?? m.surface), mentions, reasoning, testing: [], treatment: [], referral: [], education: [] });
  }
  fileOrphans(problems, orphan, analysis.sentences);
  // A drug decision said before the plan was filed only now: its order, linked to nothing yet, takes the problem's link.
  for (const p of problems) {
    const icd = p.code ? ctx.codes.icd10(p.code)?.code : undefined;
    if (!icd) continue;
    for (const piece of p.treatment)
      for (const o of orders) if (!o.linked_diagnosis_codes.length && o.source_transcripts?.some((t) => piece.src.includes(t)) && findDrugs(piece.text).some((d) => d.ingredient === o.drug_name)) o.linked_diagnosis_codes = [icd];
  }
  splitAssessments(problems);
  // The order is linked to the problem its sentence is filed under (medicationOrders); a moved sentence takes its link along.
  fileTestsByIndication(problems);
  for (const { piece, from, to } of fileByIndication(problems)) {
    const [was, now] = [ctx.codes.icd10(from.code)?.code, ctx.codes.icd10(to.code)?.code];
    for (const o of orders)
      if (now && o.linked_diagnosis_codes.length === 1 && o.linked_diagnosis_codes[0] === was && findDrugs(piece.text).some((d) => d.ingredient === o.drug_name)) o.linked_diagnosis_codes = [now];
  }
}

/**
 * One assessment of two problems ("their diabetes is likely not well controlled and their blood pressure is also
 * higher") is two: the clause naming another problem of the visit, and not this one, is filed under that problem.
 */
function splitAssessments(problems: Problem[]): void {
  for (const p of problems) {
    if (!p.code) continue;
    p.reasoning.forEach((piece, k) => {
      const at = /,? and (?=(?:their|his|her|the patient's) )/i.exec(piece.text);
      if (!at) return;
      const [head, tail] = [piece.text.slice(0, at.index), piece.text.slice(at.index + at[0].length)];
      const toks = new Set(tokenize(tail));
      const to = problems.find((x) => x !== p && x.code && namedIn(x, toks));
      if (!to || namedIn(p, toks) || !namedIn(p, new Set(tokenize(head)))) return;
      p.reasoning[k] = { ...piece, text: finishSentence(head) };
      to.reasoning.push({ ...piece, text: finishSentence(capitalize(tail)) });
    });
  }
}

/** The piece names the problem: every longer word of one of its mentions ("blood pressure" for a raised pressure). */
function namedIn(p: Problem, toks: Set<string>): boolean {
  return p.mentions.some((m) => {
    const words = m.byMeasure ? (m.code === 'I10' ? ['blood', 'pressure'] : ['cholesterol']) : m.surface.split(' ').filter((w) => w.length > 3);
    return words.length > 0 && words.every((w) => toks.has(w));
  });
}

/**
 * A treatment filed under one problem whose every drug treats another problem of the visit, and not this one, is that
 * problem's when it names it or is the only one they treat: "start lisinopril for your blood pressure", said while the
 * diabetes was under discussion, is hypertension's.
 */
function fileByIndication(problems: Problem[]): Array<{ piece: Piece; from: Problem; to: Problem }> {
  const moved: Array<{ piece: Piece; from: Problem; to: Problem }> = [];
  for (const p of problems) {
    if (!p.code) continue;
    for (const piece of [...p.treatment]) {
      const drugs = findDrugs(piece.text);
      if (!drugs.length || drugs.some((d) => indicated(d.ingredient).includes(category(p.code)))) continue;
      const toks = new Set(tokenize(piece.text));
      const treats = problems.filter((x) => x !== p && x.code && drugs.every((d) => indicated(d.ingredient).includes(category(x.code))));
      // The problem it names, else the only problem of the visit its drugs treat ("continue the metformin", said after
      // the knee was assessed, is the diabetes' — a recorded visit of issue 27).
      const to = treats.find((x) => namedIn(x, toks)) ?? (treats.length === 1 ? treats[0] : undefined);
      if (!to) continue;
      p.treatment.splice(p.treatment.indexOf(piece), 1);
      to.treatment.push(piece);
      moved.push({ piece, from: p, to });
    }
  }
  return moved;
}

/** Tests that follow one condition over time, by ICD-10-CM category: a lipid panel follows the cholesterol, not the asthma. */
const TESTS_FOR: Array<[RegExp, string[]]> = [
  [/\b(?:lipid (?:panel|profile)|lipids|fasting lipid|cholesterol (?:panel|level|test)|ldl)\b/i, ['E78']],
  [/\b(?:a1c|hemoglobin a 1 c)\b/i, ['E11', 'E10', 'E13']],
  [/\b(?:tsh|thyroid (?:panel|function tests?|levels?))\b/i, ['E03', 'E05']],
  [/\b(?:spirometry|pulmonary function tests?|pfts?)\b/i, ['J45', 'J44']],
];

/**
 * A test filed under one problem that follows another problem of the visit, and not this one, is that problem's: "we will
 * check a lipid panel", said after the asthma's plan with atorvastatin continued, is the hyperlipidemia's. A piece that
 * names this problem, or tests for more than one, stays.
 */
function fileTestsByIndication(problems: Problem[]): void {
  for (const p of problems) {
    if (!p.code) continue;
    for (const piece of [...p.testing]) {
      const tests = TESTS_FOR.filter(([re]) => re.test(piece.text));
      const cats = new Set(tests.flatMap(([, c]) => c));
      if (!cats.size || cats.has(category(p.code)) || namedIn(p, new Set(tokenize(piece.text)))) continue;
      const to = problems.filter((x) => x !== p && x.code && cats.has(category(x.code)));
      if (to.length !== 1 || tests.length !== 1) continue;
      p.testing.splice(p.testing.indexOf(piece), 1);
      to[0].testing.push(piece);
    }
  }
}

/** Plan talk under no heading: each clause goes to the problem whose drug or name it says, else the one talked of just before. */
function fileOrphans(problems: Problem[], orphan: Piece[], sentences: NoteContext['analysis']['sentences']): void {
  if (!problems.length || !orphan.length) return;
  const at = new Map<string, number>();
  for (const s of sentences) if (!at.has(s.tid)) at.set(s.tid, s.i);
  const said = (p: Problem) => [...p.mentions.map((m) => m.sentence.i), ...[...p.reasoning, ...p.testing, ...p.treatment, ...p.referral, ...p.education].flatMap((x) => x.src.map((t) => at.get(t) ?? -1))];
  // "For the heartburn we will start omeprazole … This is not your heart.": a remark that names nothing follows the problem
  // talked of last before it (a recorded visit filed it under the diabetes, the first problem).
  const lastBefore = (piece: Piece) => {
    const i = at.get(piece.src[0] ?? '') ?? -1;
    let best: Problem | undefined;
    let bestAt = -1;
    for (const p of problems) for (const j of said(p)) if (j <= i && j > bestAt) [best, bestAt] = [p, j];
    return best;
  };
  let unlinked: Problem | undefined;
  for (const piece of orphan.splice(0)) {
    for (const clause of splitOrders(piece)) {
      // The follow-up is the plan's Instructions line, not talk under a problem.
      if (/^follow(?: |-)?up\b/i.test(clause.text) && clause.text.split(' ').length <= 8) continue;
      const drugs = findDrugs(clause.text);
      const toks = new Set(tokenize(clause.text));
      const p =
        problems.find((x) => drugs.some((d) => indicated(d.ingredient).includes(category(x.code)) || x.mentions.some((m) => findDrugs(m.sentence.text).some((y) => y.ingredient === d.ingredient)))) ??
        problems.find((x) => x.mentions.some((m) => m.surface.split(' ').filter((w) => w.length > 3).some((w) => toks.has(w))));
      const near = p ?? lastBefore(clause) ?? problems[0]!;
      // A drug known to treat other conditions does not treat the one it happens to be filed beside, when the table knows
      // what treats that one: "increase your lisinopril", said with the diabetes and pressure never named, is no
      // treatment of the knee's osteoarthritis (a browser trial, 3 Dec, linked it there). It gets a plan item of its own,
      // with no diagnosis to link its order to.
      const misplaced = !p && drugs.length > 0 && drugs.every((d) => indicated(d.ingredient).length) && (!near.code || TREATED.has(category(near.code)));
      if (misplaced && !unlinked) problems.push((unlinked = { code: '', name: 'Medication management', mentions: [], reasoning: [], testing: [], treatment: [], referral: [], education: [] }));
      fileUnder(misplaced ? unlinked! : near, clause, clause.text);
    }
  }
}
// Conditions whose usual drugs INDICATIONS lists.
const TREATED = new Set(INDICATIONS.flatMap(([, cats]) => cats));

// "increase the lisinopril …, continue metformin, and check a basic metabolic panel": one action a clause.
const ACTION = /,\s*(?:and\s+)?(?=(?:continue|start|stop|check|increase|decrease|order|get|refer|add|hold|recheck|repeat|discontinue)\b)/i;
function splitOrders(piece: Piece): Piece[] {
  const parts = piece.text.replace(/\.$/, '').split(ACTION);
  if (parts.length < 2) return [piece];
  return parts.map((t) => ({ ...piece, text: finishSentence(t.trim()) }));
}
