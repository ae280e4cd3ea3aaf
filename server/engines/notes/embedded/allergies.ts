/**
 * Coded allergies for structured data (issue 29 item 1): "I am allergic to penicillin, it gives me a rash" →
 * substance penicillin (drug class, ATC J01C), reaction rash, REPORTED (the patient said it). Read from the
 * allergy statements of the visit and from the EMR context. Allergies are structured data and the Allergies
 * section only; nothing here feeds the review of systems or the exam.
 */
import type { Allergy, NoteRequest } from '../types';
import type { CodeIndex } from '@/server/codesets/index';
import { DRUG_CLASSES } from '@/server/codesets/drug-classes';
import type { NoteContext } from './compose';
import { priorQuestion } from './compose';
import { PhraseMatcher, tokenize } from './lexicon';
import { findDrugs } from './meds';
import type { Sentence } from './analyze';

const classMatcher = new PhraseMatcher(DRUG_CLASSES.flatMap((c) => c.aliases.map((a) => [c.code, a] as [string, string])));

export const REACTION =
  /\b(rash(?:es)?|hives|itching|itchy|swelling|swell(?:s|ed)? up|throat (?:closes|closing|swelling)|anaphylaxis|anaphylactic shock|trouble breathing|difficulty breathing|shortness of breath|nausea|vomiting|diarrhea|upset stomach|stomach upset|palpitations|headaches?|dizziness|blisters|cough|muscle aches|muscle pain)\b/i;

/** "to penicillin, it gives me a rash" → the phrase naming the substance, up to where the reaction talk starts. */
const ALLERGIC_TO = /\b(?:allerg(?:ic|y|ies)|intoleran(?:t|ce)|reaction|sensitive|sensitivity)\s+to\s+([a-z0-9 ,/-]+)/i;
const X_ALLERGY = /\b([a-z0-9-]+(?: [a-z0-9-]+)?)\s+allerg(?:y|ies)\b/i;
const NEGATED = /\b(?:no|not|don't have any|do not have any|nkda|denies|without)\b[^.]{0,25}\ballerg|\bnot allergic\b/i;
const GENERIC = /^(?:any|anything|medications?|medicines?|drugs?|something|some|that|this|it|food|foods|seasonal|environmental)\b/i;

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
  return concept && concept.tty === 'IN' ? { code: concept.rxcui, type: 'RXCUI', display: concept.name } : null;
}

function substancesIn(phrase: string): string[] {
  const toks = tokenize(phrase);
  const classes = classMatcher.match(toks).map((m) => toks.slice(m.start, m.end).join(' '));
  const drugs = findDrugs(phrase).map((d) => d.spoken).filter((d) => !classes.some((c) => c.includes(d) || d.includes(c)));
  if (classes.length || drugs.length) return [...classes, ...drugs];
  // Not a drug we know ("latex", "shellfish"): the words before the reaction talk, when short.
  const head = phrase.split(/\s*(?:[,.;!?]|\band\b|\bbut\b|\bit\b|\bthey\b|\bwhich\b|\bthat\b|\bbecause\b|\bi\b|\bso\b)\s*/i)[0].trim().replace(/^(?:the|a|an)\s+/i, '');
  return head && head.split(' ').length <= 3 && !GENERIC.test(head) ? [head] : [];
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

const key = (a: Pick<Allergy, 'substance' | 'substance_code'>) => (a.substance_code ? `${a.substance_code.type}:${a.substance_code.code}` : `NAME:${a.substance.toLowerCase()}`);

/** Allergies said in the visit, then those of the EMR context not said; one entry per substance. */
export function allergies(ctx: NoteContext): Allergy[] {
  const byKey = new Map<string, Allergy>();
  const sents = ctx.a.sentences;
  for (const s of sents) {
    if (s.question || !/\ballerg|\bintoleran|\breaction to\b|\bsensitiv/i.test(s.text) || NEGATED.test(s.text)) continue;
    const q = s.role === 'PATIENT' ? priorQuestion(ctx, s) : undefined;
    const phrase = ALLERGIC_TO.exec(s.text)?.[1] ?? X_ALLERGY.exec(s.text)?.[1] ?? '';
    // "I am allergic to it" after "what happens with penicillin?": the question names the substance.
    const names = substancesIn(phrase).length ? substancesIn(phrase) : q && /\ballerg/i.test(q.text) ? substancesIn(s.text) : [];
    if (!names.length) continue;
    const { reaction, src: reactionSrc } = reactionOf(s, sents[s.i + 1]);
    const src = [...new Set([...(q ? [q.tid] : []), s.tid, ...(reactionSrc ? [reactionSrc.tid] : [])])];
    for (const name of names) {
      const a: Allergy = {
        substance: name.toLowerCase(),
        substance_code: codeSubstance(name, ctx.codes),
        reaction,
        // The clinician stating it confirms it; the patient's word alone is reported.
        verification: s.role === 'CLINICIAN' ? 'CONFIRMED' : 'REPORTED',
        source_transcripts: src,
      };
      const prev = byKey.get(key(a));
      if (!prev) byKey.set(key(a), a);
      else {
        prev.reaction ??= a.reaction;
        if (a.verification === 'CONFIRMED') prev.verification = 'CONFIRMED';
        prev.source_transcripts = [...new Set([...(prev.source_transcripts ?? []), ...src])];
      }
    }
  }
  for (const e of contextAllergies(ctx.req, ctx.codes)) {
    const said = byKey.get(key(e));
    // Said in the visit and on the record: two sources agree.
    if (said) said.verification = 'CONFIRMED';
    else byKey.set(key(e), e);
  }
  return [...byKey.values()];
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
