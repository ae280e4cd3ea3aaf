/**
 * Coded allergies for structured data (issue 29 item 1): "I am allergic to penicillin, it gives me a rash" →
 * substance penicillin (drug class, ATC J01C), reaction rash, REPORTED (the patient said it). Read from the
 * allergy statements of the visit and from the EMR context. Allergies are structured data and the Allergies
 * section only; nothing here feeds the review of systems or the exam.
 */
import type { Allergy, LeftOutItem, NoteRequest } from '../types';
import type { CodeIndex } from '@/server/codesets/index';
import { DRUG_CLASSES } from '@/server/codesets/drug-classes';
import type { NoteContext } from './compose';
import { priorQuestion } from './compose';
import { PhraseMatcher, tokenize } from './lexicon';
import { findDrugs } from './meds';
import { NO, YES, type Sentence } from './analyze';
import { hasUnclear, showUnclear } from './unclear';

const classMatcher = new PhraseMatcher(DRUG_CLASSES.flatMap((c) => c.aliases.map((a) => [c.code, a] as [string, string])));

export const REACTION =
  /\b(rash(?:es)?|hives|itching|itchy|swelling|swell(?:s|ed)? up|throat (?:closes|closing|swelling)|anaphylaxis|anaphylactic shock|trouble breathing|difficulty breathing|shortness of breath|nausea|vomiting|diarrhea|upset stomach|stomach upset|palpitations|headaches?|dizziness|blisters|cough|muscle aches|muscle pain)\b/i;

/** "to penicillin, it gives me a rash" → the phrase naming the substance, up to where the reaction talk starts. */
const ALLERGIC_TO = /\b(?:allerg(?:ic|y|ies)|intoleran(?:t|ce)|reaction|sensitive|sensitivity)\s+to\s+([a-z0-9 ,/-]+)/i;
const X_ALLERGY = /\b([a-z0-9-]+(?: [a-z0-9-]+)?)\s+allerg(?:y|ies)\b/i;
const NEGATED = /\b(?:no|not|don't have any|do not have any|nkda|denies|without)\b[^.]{0,25}\ballerg|\bnot allergic\b/i;
const GENERIC = /^(?:any|anything|no|none|nothing|is|was|are|were|do|does|did|have|has|right|correct|true|okay|yes|medications?|medicines?|drugs?|something|some|that|this|it|food|foods|seasonal|environmental|them|those|these)\b/i;
// Seasonal allergies are allergic rhinitis, a problem of the visit, not an allergy to a substance.
const SEASONAL = /\b(seasonal|hay fever|pollen|fall allergies|spring allergies|allergy season)\b/i;
const ASKING = /^(?:\W*(?:and|so|okay|now|also)\W+)*(?:are|do|did|have|any|is|was)\b/i;

/** The substance's code: a drug class first (penicillin is a class), else the RxNorm ingredient. */
export function codeSubstance(name: string, codes: CodeIndex): Allergy['substance_code'] {
  const toks = tokenize(name);
  const cls = classMatcher.match(toks)[0];
  if (cls) {
    const c = DRUG_CLASSES.find((d) => d.code === cls.id)!;
    return { code: c.code, type: 'DRUG_CLASS', display: c.display };
  }
  const drug = findDrugs(name)[0];
  const concept = codes.rxByName(drug?.ingredient ?? name.trim());
  return concept && (concept.tty === 'IN' || concept.tty === 'MIN') ? { code: concept.rxcui, type: 'RXCUI', display: concept.name } : null;
}

/** "penicillin, it gives me a rash" → ["penicillin"]; "percocet, vicodin and reglan" → each of them. */
function substancesIn(phrase: string): string[] {
  // The substances end where the talk of the reaction starts.
  const head = phrase.split(/[.;!?]|\s(?:it|they|which|that|because|so|but|i|makes?|gives?|causes?|when|if)\s/i)[0];
  const out: string[] = [];
  for (const raw of head.split(/,|\band\b|\bor\b|\//i)) {
    const item = raw.trim().replace(/^(?:the|a|an|to)\s+/i, '');
    if (!item) continue;
    const toks = tokenize(item);
    const cls = classMatcher.match(toks)[0];
    const drug = findDrugs(item)[0];
    if (cls) out.push(toks.slice(cls.start, cls.end).join(' '));
    else if (drug) out.push(drug.spoken);
    // Not a drug we know ("latex", "shellfish"): kept as said when short, but never words the recogniser was
    // unsure of, nor the reaction itself ("[unclear] hives" was coded as the substance "unclearspan hives").
    else if (toks.length <= 3 && !GENERIC.test(item) && !hasUnclear(item) && !REACTION.test(item)) out.push(toks.join(' '));
  }
  return [...new Set(out)];
}

function reactionOf(s: Sentence, next: Sentence | undefined): { reaction: string | null; src?: Sentence } {
  const own = REACTION.exec(s.text);
  if (own) return { reaction: normaliseReaction(own[1]), src: s };
  if (next && next.turn === s.turn && !next.question) {
    const m = REACTION.exec(next.text);
    if (m) return { reaction: normaliseReaction(m[1]), src: next };
  }
  return { reaction: null };
}

function normaliseReaction(r: string): string {
  return r.toLowerCase().replace(/^itchy$/, 'itching').replace(/^rashes$/, 'rash').replace(/^swell(?:s|ed)? up$/, 'swelling');
}

function answeredYes(ctx: NoteContext, s: Sentence): boolean {
  const next = ctx.analysis.turns[s.turn + 1];
  return s.role === 'CLINICIAN' && next?.role === 'PATIENT' && YES.test(next.text.trim());
}

const key = (allergy: Pick<Allergy, 'substance' | 'substance_code'>) => (allergy.substance_code ? `${allergy.substance_code.type}:${allergy.substance_code.code}` : `NAME:${allergy.substance.toLowerCase()}`);

/** Allergies said in the visit, then those of the EMR context not said; one entry per substance. */
export function allergies(ctx: NoteContext): Allergy[] {
  const byKey = new Map<string, Allergy>();
  const add = (a: Allergy) => {
    const prev = byKey.get(key(a));
    if (!prev) byKey.set(key(a), a);
    else {
      prev.reaction ??= a.reaction;
      if (a.verification === 'CONFIRMED') prev.verification = 'CONFIRMED';
      prev.source_transcripts = [...new Set([...(prev.source_transcripts ?? []), ...(a.source_transcripts ?? [])])];
    }
  };
  const sents = ctx.analysis.sentences;
  for (const s of sents) {
    for (const a of avoidedAllergens(ctx, s))
      add({
        substance: a.name.toLowerCase(),
        substance_code: codeSubstance(a.name, ctx.codes),
        reaction: a.reaction,
        verification: s.role === 'CLINICIAN' ? 'CONFIRMED' : 'REPORTED',
        source_transcripts: a.src,
      });
    // "Yes, penicillin gives me a rash", answering "any allergies to medications?", names no allergy itself.
    const answersAllergyQuestion = s.allergy && s.role === 'PATIENT' && !NO.test(s.text.trim());
    if ((!/\ballerg|\bintoleran|\breaction to\b|\bsensitiv/i.test(s.text) && !answersAllergyQuestion) || NEGATED.test(s.text) || SEASONAL.test(s.text)) continue;
    // "And you're allergic to Percocet." reads as a question to the parser; it is the clinician stating the chart.
    // A real question ("you're allergic to Augmentin, is that right?") counts when the patient says yes.
    if (s.question && (/\?\s*$/.test(s.text) || ASKING.test(s.text)) && !answeredYes(ctx, s)) continue;
    const q = s.role === 'PATIENT' ? priorQuestion(ctx, s) : undefined;
    const to = ALLERGIC_TO.exec(s.text)?.[1];
    // "a penicillin allergy": only a substance the code sets know, never the words before any "allergy".
    const x = to ? undefined : X_ALLERGY.exec(s.text)?.[1];
    const phrase = to ?? (x && codeSubstance(x, ctx.codes) ? x : '');
    // "I am allergic to it" after "what happens with penicillin?": the question names the substance.
    const names = substancesIn(phrase).length ? substancesIn(phrase) : q && /\ballerg/i.test(q.text) ? substancesIn(s.text) : [];
    if (!names.length) continue;
    const { reaction, src: reactionSrc } = reactionOf(s, sents[s.i + 1]);
    const src = [...new Set([...(q ? [q.tid] : []), s.tid, ...(reactionSrc ? [reactionSrc.tid] : [])])];
    for (const name of names)
      add({
        substance: name.toLowerCase(),
        substance_code: codeSubstance(name, ctx.codes),
        reaction,
        // The clinician stating it confirms it; the patient's word alone is reported.
        verification: s.role === 'CLINICIAN' ? 'CONFIRMED' : 'REPORTED',
        source_transcripts: src,
      });
  }
  for (const e of contextAllergies(ctx.req, ctx.codes)) {
    const said = byKey.get(key(e));
    // Said in the visit and on the record: two sources agree.
    if (said) said.verification = 'CONFIRMED';
    else byKey.set(key(e), e);
  }
  return [...byKey.values()];
}

/**
 * The drugs a sentence says to avoid for a reaction (marked by the analysis), each with its reaction: said in the
 * sentence, else in the other speaker's sentence just before that names the drug ("I had a rash with penicillin").
 */
export function avoidedAllergens(ctx: NoteContext, s: Sentence): Array<{ name: string; reaction: string | null; src: string[] }> {
  if (!s.allergens?.length) return [];
  const prior = ctx.analysis.turns[s.turn - 1]?.sentences ?? [];
  return s.allergens.map((name) => {
    const own = reactionOf(s, ctx.analysis.sentences[s.i + 1]);
    const said = own.reaction ? undefined : prior.find((p) => REACTION.test(p.text) && findDrugs(p.text).some((d) => d.spoken === name));
    const reaction = own.reaction ?? (said ? normaliseReaction(REACTION.exec(said.text)![1]) : null);
    const src = [...new Set([...(said ? [said.tid] : []), s.tid, ...(own.src ? [own.src.tid] : [])])];
    return { name, reaction, src };
  });
}

function contextAllergies(req: NoteRequest, codes: CodeIndex): Allergy[] {
  return (req.emrContext?.allergies ?? []).map((e) => {
    const concept = e.rxcui ? codes.rxByCui(e.rxcui) : undefined;
    return {
      substance: e.substance.toLowerCase(),
      substance_code: e.rxcui ? { code: e.rxcui, type: 'RXCUI' as const, ...(concept ? { display: concept.name } : {}) } : codeSubstance(e.substance, codes),
      reaction: e.reactions?.[0] ?? null,
      verification: 'REPORTED' as const,
      source_transcripts: [],
    };
  });
}

/**
 * The patient's answer to "any allergies?" that yielded neither an allergy nor a "no": heard, but not read
 * ("sulfa drugs give me hives" heard as "self a drags kidney hives", a recorded visit of issue 27). Nothing is
 * coded from it, so the review before signing lists it: a missed allergy is the costliest silence in a note.
 */
export function unreadAllergyAnswers(ctx: NoteContext, coded: Allergy[]): LeftOutItem[] {
  const read = new Set(coded.flatMap((a) => a.source_transcripts ?? []));
  const out: LeftOutItem[] = [];
  const turns = ctx.analysis.turns;
  for (const [k, turn] of turns.entries()) {
    const first = turn.sentences[0];
    // The question is the clinician's last sentence before the answer; an unsure word may have cost it its question form.
    const q = turns[k - 1]?.role === 'CLINICIAN' ? turns[k - 1].sentences.at(-1) : undefined;
    if (!first || turn.role !== 'PATIENT' || !q || !/\ballerg/i.test(q.text) || NEGATED.test(q.text) || NO.test(first.text.trim())) continue;
    if (read.has(q.tid) || turn.sentences.some((s) => read.has(s.tid))) continue;
    const said = turn.sentences.filter((s, j) => j === 0 || s.allergy);
    const shown = showUnclear(said.map((s) => s.text).join(' '));
    // A quote of nothing but "[unclear]" tells the clinician less than saying so; the evidence plays the audio.
    const text = /[a-z]/i.test(shown.replace(/\[unclear\]/g, '')) ? `Asked about allergies, the patient said: "${shown}"` : 'Asked about allergies, the patient answered, but no word of the answer was heard clearly.';
    out.push({ reason: 'NOT_UNDERSTOOD', kind: 'allergy', text, loinc_code: '48765-2', source_transcripts: [q.tid, ...said.map((s) => s.tid)] });
  }
  // An allergy coded with no reaction from an answer the recogniser was unsure of ("yes penicillin [unclear] me [unclear]"):
  // the reaction may be what was not heard, so the review quotes the answer.
  const byTid = new Map(ctx.analysis.sentences.map((s) => [s.tid, s]));
  for (const a of coded) {
    if (a.reaction) continue;
    const unsure = [...new Set(a.source_transcripts ?? [])].map((t) => byTid.get(t)).filter((s): s is Sentence => !!s && s.role === 'PATIENT' && hasUnclear(s.text));
    if (unsure.length) out.push({ reason: 'LOW_CONFIDENCE', kind: 'allergy', text: `Reaction to ${a.substance} not heard clearly: "${showUnclear(unsure.map((s) => s.text).join(' '))}"`, loinc_code: '48765-2', source_transcripts: unsure.map((s) => s.tid) });
  }
  return out;
}
