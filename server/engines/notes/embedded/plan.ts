/** Assessment and plan: problems, the clinician's plan talk filed per problem, follow-up. */
import { conditionMentions, type ConditionMention } from './analyze';
import { stripFiller, type Block, type NoteContext, type Piece } from './compose';
import { CONCEPT_NAME, tokenize } from './lexicon';
import { splitDictated, type DictatedClause } from './dictated';
import { PLAIN_LEXICON } from './plain-lexicon';
import { findDrugs } from './meds';
import { UNIT_CODES } from './vocab';
import { examInPlan, resultPieces } from './exam';
import { capitalize, clinicianToNote, finishSentence, pronouns } from './text';
import { hasUnclear, resolveUnclear } from './unclear';
import { clinicianVoice } from './written';
import { isPrecaution, precautionPieces } from './precautions';

export interface Problem {
  code: string;
  name: string;
  mentions: ConditionMention[];
  reasoning: Piece[];
  testing: Piece[];
  treatment: Piece[];
  referral: Piece[];
  education: Piece[];
}

const PROBLEM_CUE = /(?:^|\b)(?:under the plan,? )?(?:^under|^on (?:the|her|his|your)|standpoint|perspective|for your|in terms of|regarding|as for|with regards? to|next problem|first problem|second problem|last problem|impression|i think (?:you have|that you have|this is|it's|you've)|diagnosis|as far as|your|for the|for his|for her)\b/i;
// Words that tie a diagnosis to the symptom under discussion, said just before the diagnosis.
const DIAGNOSTIC_LINK = /\b(this is|it is|it's|that's|this is likely|consistent with|due to|secondary to|caused by|from|likely|probably|diagnosis|diagnosed with|represents)\b/;
const TESTING = /\b(x-ray|xray|mri|ct|cat scan|labs?|blood work|bloodwork|a1c|panel|ultrasound|echo\w*|ekg|test|testing|cbc|cmp|culture|biopsy|colonoscopy|mammogram|scan|study|urinalysis|level|levels|catheterization|cath|imaging|screening)\b/i;
const REFERRAL = /\b(refer|referral|physical therapy|specialist|orthopedic|surgeon|cardiologist|dermatologist|neurologist|endocrinologist|nutritionist|dietitian|counseling|therapist|see a)\b/i;
const TREATMENT = /\b(prescribe|prescription|medication|medicine|mg|milligrams|continue|start|increase|decrease|brace|splint|sling|crutches|surgery|injection|shot|dose|refill|ice|icing|heat|rest|elevat\w*|take|taking|inhaler|cream|antibiotic|therapy|procedure)\b/i;
const EDUCATION = /\b(recommend|advise|encourage|discussed|talked about|avoid|diet|exercise|make sure|should|call|come back|return|worse|follow up|follow-up|lose weight|stretch|monitor|keep an eye|watch|hydrat\w*|drink plenty|limit|cut back)\b/i;
const PLAN_NOISE = /^(okay|alright|all right|any questions|does that sound|sounds good|how does that sound|is that okay|hey,? dragon|thank you|great|good|perfect|yes|yeah)\b|\bfinalize the note\b|\b(?:good|nice|great) (?:to see|seeing)\b|\banything else\b|\bthanks? (?:you )?for coming\b|\b(the nurse|checked out|assessment and (?:my )?plan|talk (?:a little bit )?about (?:my|the) (?:assessment|plan)|go over (?:my|the|a little))\b/i;

// The clinician taking note of what the patient said ("That is good to know for your family history", "thank you, that is
// helpful"): an acknowledgement, not reasoning (a browser trial, 3 Dec, filed it as the knee's Medical Reasoning).
const ACKNOWLEDGED = /^(?:(?:thank you|thanks|okay|ok|well),?\s+)*(?:that is|that's|this is|it is|it's) (?:really |very |all )?(?:good|helpful|important|useful|great|nice|interesting) (?:to know|to hear|information|(?:to have |for (?:your|their|his|her) )?(?:family|medical|social) history)\b/i;

// "This is osteoarthritis of the right knee", said after another problem's plan, names a problem of its own.
const NAMES_IT = /^(?:this|that|it) (?:is|looks like|sounds like)\b/i;
const DRUG_ACTION = /^(?:(?:and|so|then|also|okay|alright)[, ]+)*(?:continue|start|stop|hold|resume|restart|discontinue|increase|decrease|refill|keep (?:taking|using|on)|stay on)\b/i;
/** The dose units parseOrder reads (vocab.ts), and a strength in percent. */
const DOSE_UNIT = new RegExp(`^\\s*(?:${[...Object.keys(UNIT_CODES).sort((a, b) => b.length - a.length), 'percent'].join('|')}|%)(?:\\b|$)`, 'i');
function doseWithoutUnit(text: string, drug: string): boolean {
  const at = text.toLowerCase().indexOf(drug.toLowerCase());
  const after = at < 0 ? null : /^\s+(?:to\s+|at\s+)?\d+(?:\.\d+)?(.*)$/.exec(text.slice(at + drug.length));
  return !!after && !DOSE_UNIT.test(after[1]!);
}
/** "We will continue the metformin", "I am going to increase the lisinopril": a decision about a drug, wherever it is said. */
const DRUG_DECISION = /\b(?:we will|we'll|i will|i'll|i am going to|i'm going to|we are going to|we're going to|i'm gonna|we're gonna|i want you to|you can|you should|let's)\s+(?:go ahead and\s+)?(?:continue|increase|decrease|start|stop|hold|resume|restart|discontinue|refill|switch|change|prescribe|add|take)\b/i;

// The plain-language lexicon read backwards: the everyday wording → the clinical term it stands for.
const LAY_NAME = new Map<string, Set<string>>();
for (const [clinical, plain] of PLAIN_LEXICON) LAY_NAME.set(plain, (LAY_NAME.get(plain) ?? new Set()).add(clinical));

export function problemName(m: ConditionMention): string {
  const toks = m.sentence.tokens;
  const mods: string[] = [];
  for (let k = m.start - 1; k >= Math.max(0, m.start - 2); k--) {
    if (/^(acute|chronic|mild|moderate|severe|uncontrolled|controlled|recurrent|persistent|new|worsening|stable)$/.test(toks[k])) mods.unshift(toks[k]);
    else break;
  }
  // Trailing qualifiers scribes keep: "heart failure exacerbation", "asthma flare".
  const tail = /^(exacerbation|flare|flare-up|relapse)$/.test(toks[m.end] ?? '') ? [toks[m.end]] : [];
  // An everyday name said for the condition ("high blood pressure") is headed by its clinical name ("Hypertension"), as scribes write it.
  const clinical = CONCEPT_NAME.get(m.code);
  const named = clinical && LAY_NAME.get(m.surface)?.has(clinical) ? clinical : m.surface;
  let surface = [...mods, named, ...tail].join(' ');
  if (/^(chf|copd|gerd|bph|uti|dvt|osa|ptsd|adhd|ckd|afib|hfref|hfpef|esrd|pcos|htn)$/.test(surface)) surface = surface.toUpperCase();
  else if (surface.split(' ').length === 1 && surface.length <= 3) surface = CONCEPT_NAME.get(m.code) ?? surface;
  return capitalize(surface.replace(/\bi\b/g, 'I'));
}

export function isDiagnosisCode(code: string): boolean {
  return !/^(Z0|Z1|Z2|Z3|Z5|Z7[1-6]|W|T14)/.test(code);
}

/**
 * Spoken plans run on ("… metformin I am going to order an A1c I want you to …"); each new first-person
 * action starts a clause so it can be filed under its own heading and kept or dropped on its own.
 */
export function splitPlanClauses(text: string): string[] {
  return text
    .split(/,?\s+(?:and\s+|so\s+|then\s+)?(?=(?:i|we) (?:will|would like|want|am going|are going|'ll|'m going|also want|also will|do want|think|recommend)\b|(?:i'd|we'd) like\b|(?:i'll|we'll|let's|let us) [a-z]{3,}\b)/i)
    .map((x) => x.trim())
    .filter(Boolean);
}

const ORDINAL_INTRO =
  /^(?:[a-z]+,?\s+)?(?:so\s+|now\s+|and\s+)?(?:for|with|regarding|as for|in terms of|moving on to|onto|on to)\s+(?:your|the|her|his|their)?\s*(?:first|second|third|fourth|fifth|next|last|final|other)\s+(?:problem|issue|concern|thing)(?:\s+(?:of|is|with|which is))?\s*(?:your|the|her|his|their)?\s*/i;

/** "for your second problem of your diabetes mellitus, we will …" → "we will …": the heading names it. */
function stripProblemIntro(t: string, p: Problem, mentions: ConditionMention[]): string {
  let out = t.replace(ORDINAL_INTRO, '');
  const m = mentions.find((x) => x.code === p.code);
  if (m && out !== t) {
    const surface = new RegExp(`^(?:[a-z]+\\s+){0,2}?${m.surface.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')}\\w*[,.]?\\s*`, 'i');
    out = out.replace(surface, '');
  }
  // An intro that only names the problem leaves nothing: the heading already says it.
  return out === t ? t : out.trim();
}

/** Spoken intentions in the plan voice scribes write: "I am going to order an x-ray" → "We will order an x-ray". */
export function scribePlan(t: string): string {
  return t
    .replace(/^(?:so\s+)?(?:I|we)\s+(?:also\s+)?(?:want to|do want to|would like to|would like us to|am going to|are going to|will go ahead and|am gonna|are gonna|will also|will|'ll)\s+(?:go ahead and\s+)?(?:also\s+)?/i, 'We will ')
    // "I am ordering a basic metabolic panel today" (a browser trial, 3 Dec: dropped as first-person speech).
    // Said after "today" too: "Today I am ordering a basic metabolic panel" (the same trial's visits, left out as first person).
    .replace(/^(?:so\s+)?(?:today,?\s+)?(?:I am|I'm|we are|we're)\s+(?:also\s+)?(?=(?:ordering|checking|getting|sending|scheduling|starting|stopping|increasing|decreasing|prescribing|referring|adding|holding|repeating)\b)/i, 'We are ')
    .replace(/^We will (?:have|get) (she|he|the patient|they) (?=\w)/i, (_m, who: string) => `${who} will `)
    .replace(/\b(?:I am|we are|I'm|we're) (?:going to|gonna) (?:go ahead and )?/g, 'we will ')
    .replace(/\b(?:I|we) (?:also )?(?:want to|would like to|do want to) (?:go ahead and )?/g, 'we will ');
}

/** Groups the clinician's assessment/plan talk by problem and files each sentence under its heading. */
export function planProblems(ctx: NoteContext, complaint?: { text: string }): { problems: Problem[]; orphan: Piece[] } {
  const { analysis } = ctx;
  const problems: Problem[] = [];
  const orphan: Piece[] = [];
  const spoken = new Map<Piece, string>();
  let current: Problem | undefined;
  const followUpLine = followUpPiece(ctx);
  const instructed = followUpLine && followUpInterval(followUpLine.text);
  // A sentence split into clauses is read whole once, however many clauses it gives.
  const wholeRead = new Map<number, ConditionMention[]>();
  const wholeMentions = (i: number) => wholeRead.get(i) ?? wholeRead.set(i, conditionMentions(analysis.sentences[i]!)).get(i)!;
  // A clause that starts a new action ("…, and we will check an A1c") is filed on its own.
  const sents = analysis.sentences
    .slice(analysis.planStart)
    .filter((s) => s.role === 'CLINICIAN' && !examInPlan(analysis, s))
    .flatMap((s) => splitPlanClauses(s.text).map((text) => (text === s.text ? s : { ...s, text, tokens: tokenize(text) })))
    .flatMap((s) => splitDictated(s.text).map((c): typeof s & { label?: DictatedClause['label'] } => (c.text === s.text ? s : { ...s, text: c.text, tokens: tokenize(c.text), label: c.label })));
  for (const s of sents) {
    let t = stripFiller(s.text.replace(/\bhey,? dragon,?[^.]*\.?/gi, ''));
    // "Continue the metformin." is a whole order however short: a drug with what to do with it.
    const drugAction = DRUG_ACTION.test(s.text) && findDrugs(s.text).length > 0;
    const minWords = s.label || drugAction ? 1 : 4;
    // "for your diabetes," cut off its clause is short, but it still names the topic that follows.
    const topicOnly = /^(?:for|regarding|as for|in terms of|with regards? to|as far as)\s+(?:your|the|her|his|their)\s+[a-z' -]+,?$/i.test(t);
    if (!t || PLAN_NOISE.test(t) || ACKNOWLEDGED.test(t) || (t.split(' ').length < minWords && !topicOnly) || (s.question && !/\b(want|like|going|plan)\b/i.test(t))) continue;
    // Return precautions are the Instructions line's (precautions.ts), never one problem's.
    if (isPrecaution(s.text) || isPrecaution(analysis.sentences[s.i]?.text ?? '')) continue;
    // "I have noted the penicillin allergy" is the Allergies section's; a drug chosen because of it is still the plan's.
    if (/\ballerg(?:y|ic|ies)\b/i.test(t) && !DRUG_DECISION.test(t) && !/\b(?:prescrib\w*|instead)\b/i.test(t)) continue;
    // A follow-up said on its own ("Follow up in four weeks.") is the Instructions line; a fact is filed once, so it
    // is not repeated under a problem. One with another interval, or with more said in it, stays where it was said.
    // ("I will see you for follow-up in three months" is nine words.)
    if (t.replace(/^(?:and|so|then)\s+/i, '').split(' ').length <= 9 && (s.label === 'plan' ? FOLLOW_UP.test(t) : !!instructed && followUpInterval(t) === instructed)) continue;
    // "for your shortness of breath," cut off its clause only names the topic.
    if (topicOnly && t.split(' ').length <= 7) {
      const topic = conditionMentions(s).find((m) => !m.negated && isDiagnosisCode(m.code));
      if (topic && !problems.some((p) => p.code.slice(0, 3) === topic.code.slice(0, 3))) {
        current = { code: topic.code, name: problemName(topic), mentions: [topic], reasoning: [], testing: [], treatment: [], referral: [], education: [] };
        problems.push(current);
      } else if (topic) current = problems.find((p) => p.code.slice(0, 3) === topic.code.slice(0, 3));
      continue;
    }
    // A clause is read with its whole sentence's negations: "it could be gout" is set aside by the "but I think it's …"
    // clause split from it (analyze.ts, setAside).
    const whole = s.text === analysis.sentences[s.i]?.text ? [] : wholeMentions(s.i);
    const deniedInWhole = (m: ConditionMention) => whole.some((x) => x.code === m.code && x.negated) && !whole.some((x) => x.code === m.code && !x.negated);
    const mentions = conditionMentions(s).filter((m) => !m.negated && !m.family && !deniedInWhole(m));
    // A diagnosis named with its symptom ("shortness of breath from an acute heart failure exacerbation") names the problem.
    const ranked = [...mentions].sort((x, y) => Number(x.code.startsWith('R')) - Number(y.code.startsWith('R')));
    let introduced = ranked.find((m) => isDiagnosisCode(m.code) && (s.label === 'assessment' || PROBLEM_CUE.test(t) || !current || (NAMES_IT.test(t) && m.start <= 5)));
    // "For your shortness of breath … I think this is an acute heart failure exacerbation": the symptom's problem takes the diagnosis.
    const diagnosed = current?.code.startsWith('R') ? ranked.find((m) => !m.code.startsWith('R') && isDiagnosisCode(m.code) && DIAGNOSTIC_LINK.test(m.sentence.tokens.slice(Math.max(0, m.start - 4), m.start).join(' '))) : undefined;
    if (current && diagnosed && !problems.some((p) => p.code.slice(0, 3) === diagnosed.code.slice(0, 3))) {
      current.code = diagnosed.code;
      current.name = problemName(diagnosed);
      if (introduced?.code === diagnosed.code || introduced?.code.startsWith('R')) introduced = undefined;
    }
    if (introduced) {
      const existing = problems.find((p) => p.code === introduced.code || p.code.slice(0, 3) === introduced.code.slice(0, 3));
      if (existing) current = existing;
      else {
        current = { code: introduced.code, name: problemName(introduced), mentions: [], reasoning: [], testing: [], treatment: [], referral: [], education: [] };
        problems.push(current);
      }
    }
    if (current) current.mentions.push(...mentions.filter((m) => m.code === current!.code));
    // The labelled assessment is the problem's heading, not a sentence under it.
    if (s.label === 'assessment') continue;
    t = t.replace(/^(so|and|now|um|okay|alright|also),?\s+/i, '').replace(/^(?:under the plan,?\s+)?(?:for your (?:first |next |last )?problem(?: of)?|for your|in terms of your|regarding your|as for your|under|on the)\s+([^,]+),\s*/i, '');
    if (current) t = stripProblemIntro(t, current, mentions);
    if (!t) continue;
    // The heading names the problem, so the spoken lead-in to it goes: "my impression of him at this time, from a diabetes standpoint, …".
    t = t.replace(/^(?:then,?\s+)?my impression of (?:him|her|you|the patient|them) at this time,?\s*/i, '').replace(/^(?:then,?\s+)?from an? [a-z' ]{3,30}? (?:standpoint|perspective)(?:,\s*|\.?$)/i, '');
    if (!t) continue;
    // Written in the note's voice before it is filed, so a sentence left out does not take a budgeted place.
    const note = planSentence(t, analysis.sex);
    if (note.split(' ').length < (s.label || drugAction ? 2 : 3)) continue;
    const piece: Piece = { text: note, src: [s.tid] };
    if (!current) { orphan.push(piece); spoken.set(piece, t); continue; }
    fileUnder(current, piece, t);
  }
  // Plan talk before any condition was named is about the body part the visit opened on.
  if (complaint && orphan.length && !problems.some((p) => p.name.toLowerCase() === complaint.text.toLowerCase())) {
    const p: Problem = { code: '', name: capitalize(complaint.text), mentions: [], reasoning: [], testing: [], treatment: [], referral: [], education: [] };
    for (const piece of orphan.splice(0)) fileUnder(p, piece, spoken.get(piece)!);
    problems.unshift(p);
  }
  // A decision about a drug said while the history was taken belongs to the plan as much as one said after the
  // examination (a short visit often has no plan talk of its own): filed later under the problem its drug treats.
  for (const s of analysis.sentences.slice(0, analysis.planStart)) {
    // One heard around an unsure word is judged on what the note keeps of it ("i [unclear] increase the metformin to …"
    // keeps "Increase the metformin to …"), as it is in the plan; the piece keeps the marker, so the review lists the span.
    const decided = (text: string) => DRUG_ACTION.test(text) || DRUG_DECISION.test(text);
    if (s.role !== 'CLINICIAN' || s.question || s.allergy || !findDrugs(s.text).length || !(decided(s.text) || (hasUnclear(s.text) && decided(resolveUnclear(s.text))))) continue;
    // A number heard after the drug without its unit ("start lisinopril ten want and any") is no dose to write down; the
    // order says what is missing.
    if (findDrugs(s.text).some((d) => doseWithoutUnit(s.text, d.spoken))) continue;
    const t = stripFiller(s.text).replace(/^(so|and|now|um|okay|alright|also|good|great),?\s+/i, '');
    const note = planSentence(t, analysis.sex);
    if (note.split(' ').length >= 2) orphan.push({ text: note, src: [s.tid] });
  }
  // Talk before any problem was named is filed later, under the problem its drug or words name (addManagedProblems).
  return { problems, orphan };
}

/** A clinician's plan talk in the note's voice. */
function planSentence(t: string, sex: NoteContext['analysis']['sex']): string {
  return clinicianVoice(finishSentence(scribePlan(clinicianToNote(t, sex)).replace(/\b(we will|I will|I am going to) go ahead and\b/gi, '$1')), sex);
}

/** Files a plan sentence under the part of its problem it belongs to; a short bare remark is left out. */
export function fileUnder(p: Problem, piece: Piece, t: string): void {
  const bucket = findDrugs(t).length || /\b(prescribe|brace|splint|sling|surgery|injection)\b/i.test(t)
    ? p.treatment
    : REFERRAL.test(t)
      ? p.referral
      : TESTING.test(t) && /\b(?:order(?:ing|ed)?|get(?:ting)?|check(?:ing)?|obtain(?:ing)?|repeat(?:ing)?|draw(?:ing)?|schedul(?:e|ing)|send(?:ing)?|do(?:ing)?)\b/i.test(t)
        ? p.testing
        : TREATMENT.test(t)
          ? p.treatment
          : EDUCATION.test(t)
            ? p.education
            : p.reasoning;
  if (bucket === p.reasoning && piece.text.split(' ').length < 5) return;
  bucket.push(piece);
}

/** Pieces in order until the word budget is spent; a piece repeating an earlier one is dropped. */
function budgeted(pieces: Piece[], cap: number, budget: number, seen: string[][]): Piece[] {
  const out: Piece[] = [];
  let words = 0;
  for (const p of pieces) {
    if (out.length >= cap) break;
    const toks = tokenize(p.text);
    const repeat = seen.some((prev) => {
      const set = new Set(prev);
      return toks.filter((t) => set.has(t)).length >= toks.length * 0.8;
    });
    if (repeat) continue;
    if (out.length && words + toks.length > budget) break;
    out.push(p);
    seen.push(toks);
    words += toks.length;
  }
  return out;
}

const FOLLOW_UP =
  /\b(?:see (?:you|her|him|them) (?:back |again )?(?:here )?|follow(?: |-)?up (?:with me )?|come back |return |recheck (?:you )?|check (?:on )?(?:you|her|him) |back )(?:in )+(?:about |another |a )?(\d+|a|one|two|three|four|six|couple(?: of)?|few) ?(days?|weeks?|months?|years?)\b/i;
// The interval said first: "three weeks, I'd like you to return".
const FOLLOW_UP_AFTER = /\b(\d+|a|two|three|four|six|couple(?: of)?|few) (days?|weeks?|months?|years?),? (?:i'd|i would|i want|we'll|i'll) (?:like )?(?:you to |to see you )?(?:return|come back|follow up|see you)\b/i;
const FOLLOW_UP_NEXT = /\b(?:see (?:you|her|him|them) (?:back |again )?|follow(?: |-)?up (?:with me )?|come back )next (week|month|year)\b/i;

/** The follow-up interval a sentence states ("see you back in four weeks" → "4 weeks"), as the Instructions line writes it. */
export function followUpInterval(text: string): string | undefined {
  const next = FOLLOW_UP_NEXT.exec(text);
  const m = FOLLOW_UP.exec(text) ?? FOLLOW_UP_AFTER.exec(text) ?? (next ? [next[0], '1', next[1]] : null);
  if (!m) return undefined;
  const count = m[1].toLowerCase();
  const n = /^(?:a|one)$/.test(count) ? '1' : /^couple/.test(count) ? 'a couple of' : count === 'few' ? 'a few' : count;
  const unit = n === '1' ? m[2].replace(/s$/, '') : /s$/.test(m[2]) ? m[2] : `${m[2]}s`;
  return `${n} ${unit.toLowerCase()}`;
}

/** "I'll see you back in 4 weeks" → the follow-up line scribes end the plan with. */
export function followUpPiece(ctx: NoteContext): Piece | undefined {
  for (const s of ctx.analysis.sentences.slice(ctx.analysis.planStart).reverse()) {
    if (s.role !== 'CLINICIAN') continue;
    const interval = followUpInterval(s.text);
    if (interval) return { text: `The patient will follow up with me in ${interval}.`, src: [s.tid], template: true };
  }
  return undefined;
}

const AGREED = /\b(?:i (?:understand|agree)|agreed|sounds (?:good|great|fine|like a (?:good )?plan)|that (?:sounds (?:good|great|fine)|works)|let's do (?:it|that)|that's fine|makes sense|i'm (?:on board|fine with that)|i can do that)\b/i;

export function planBlocks(ctx: NoteContext, problems: Problem[], orphan: Piece[], opener?: Piece): Block[] {
  const blocks: Block[] = [];
  if (opener && ctx.verbosity !== 'CONCISE') blocks.push({ pieces: [opener], para: true });
  // When imaging was reviewed with the patient, scribes open the plan by saying so.
  const imaging = resultPieces(ctx).find((p) => /\b(x-rays?|xrays?|mri|ct|radiograph\w*|ultrasound)\b/i.test(p.text));
  if (imaging && problems.length && ctx.verbosity !== 'CONCISE')
    blocks.push({ pieces: [{ text: `After reviewing the patient's examination and radiographic findings today, I have had a discussion with the patient in regards to ${pronouns(ctx.analysis.sex).poss} current symptoms.`, src: imaging.src, template: true }], para: true });
  const cap = ctx.verbosity === 'CONCISE' ? 1 : ctx.verbosity === 'DETAILED' ? 20 : 3;
  // Scribes write a line or two per heading; budget tuned on the ACI-BENCH train split.
  const wordBudget = ctx.verbosity === 'DETAILED' ? 10_000 : ctx.verbosity === 'CONCISE' ? 25 : 60;
  const seen: string[][] = [];
  problems.forEach((p, n) => {
    blocks.push({ heading: `${n + 1}. ${p.name}.`, pieces: [], para: true });
    const parts: Array<[string, Piece[]]> = [
      ['Medical Reasoning', p.reasoning],
      ['Additional Testing', p.testing],
      ['Medical Treatment', p.treatment],
      ['Specialist Referrals', p.referral],
      ['Patient Education and Counseling', p.education],
    ];
    // Scribes record the counselling the clinician gave; only when the clinician did discuss the problem.
    if (ctx.verbosity !== 'CONCISE' && !p.education.length) {
      const talk = [...p.reasoning, ...p.treatment, ...p.testing].find((x) => /\b(discuss|talk|explain|recommend|options?|risks?|benefits?)\w*/i.test(x.text));
      if (talk) parts[4] = ['Patient Education and Counseling', [{ text: `I discussed the diagnosis and treatment options for ${p.name.toLowerCase()} with the patient.`, src: talk.src, template: true }]];
    }
    for (const [label, pieces] of parts) {
      if (!pieces.length) continue;
      if (ctx.verbosity === 'CONCISE' && label === 'Medical Reasoning' && (p.treatment.length || p.testing.length)) continue;
      const kept = budgeted(pieces, cap, wordBudget, seen);
      if (kept.length) blocks.push({ label, pieces: kept, bullet: true });
    }
  });
  if (!problems.length && orphan.length) blocks.push({ pieces: orphan.slice(0, cap * 2), para: true });
  const followUp = followUpPiece(ctx);
  // The agreement line is written only when the patient agreed in words; a bare "okay" or "yes" acknowledges,
  // it does not agree (issue 27), so then the note says nothing about agreement. Written from that span, it is not template.
  const agreed = ctx.analysis.sentences.slice(ctx.analysis.planStart).filter((s) => s.role === 'PATIENT' && !s.question && AGREED.test(s.text)).at(-1);
  if (agreed && (problems.length || orphan.length))
    blocks.push({ label: 'Patient Agreements', pieces: [{ text: 'The patient understands and agrees with the recommended medical treatment plan.', src: [agreed.tid] }], para: true });
  const instructions = [...(followUp ? [followUp] : []), ...precautionPieces(ctx)];
  if (instructions.length) blocks.push({ label: 'Instructions', pieces: instructions, para: true });
  return blocks;
}

