import { analyze, NO, YES } from '../embedded/analyze';
import { joinCutLines } from '../embedded/join-cut-lines';
import type { TranscriptLine } from '../types';
import { contextEntries } from './context-entries';
import { extractFacts } from './extract-facts';
import { normaliseForMatching } from './normalise-for-matching';
import type { EvidenceEntry, FaithfulnessContext, Polarity } from './types';

/** The patient saying yes to the plan in words that mean it; a bare "okay" acknowledges, it does not agree. */
const AGREES = /\b(?:i (?:understand|agree)|agreed?|sounds (?:good|great|fine|like a (?:good )?plan)|that (?:sounds|works)|let's do (?:it|that)|that's fine|makes sense|i'm (?:on board|fine with that)|i can do that|will do)\b/i;

/**
 * What each transcript entry states, read once per check: its facts with the polarity the visit gave them
 * (a question takes the answer's: "any chest pain?" "no" states no chest pain; a denial needs a "no"), whether a symptom in it is
 * an allergic reaction, whether the patient agrees in it, and its normalised words. The session context
 * follows as entries "context:…".
 */
export function buildEvidenceIndex(transcript: TranscriptLine[], context: FaithfulnessContext = {}): EvidenceEntry[] {
  // Read as the engine reads it: a reading the segmenter cut ("one fifty" / "over ninety five") is one entry, or the
  // note's "150/95" is found nowhere (a recorded visit of issue 27).
  const a = analyze(joinCutLines(transcript).lines);
  const entries: EvidenceEntry[] = a.turns.map((turn, index) => {
    const prev = a.turns[index - 1];
    const next = a.turns[index + 1];
    const answer = next && next.role !== turn.role ? next.text.trim() : '';
    const askedAllergies = !!prev && prev.role !== turn.role && /\ballerg/i.test(prev.text) && prev.sentences.some((s) => s.question);
    const reaction = /\ballerg/i.test(turn.text) || askedAllergies;
    const facts: EvidenceEntry['facts'] = [];
    for (const s of turn.sentences) {
      const said = extractFacts(s.text, turn.role === 'CLINICIAN' ? 'CLINICIAN' : 'PATIENT');
      if (s.question && /\ballerg/i.test(s.text) && NO.test(answer)) said.push({ kind: 'allergy', text: s.text, key: 'allergy:none' });
      for (const f of said) {
        const negative = f.kind === 'negation';
        let polarity: Polarity = { pos: !negative, neg: negative };
        // A question asserts nothing by itself; the answer decides. A denial needs a "no"; an answer that talks
        // about it without yes or no ("only when I climb stairs") states it; no answer states nothing.
        // Only the clinician's questions are asked of the patient; the patient's own ("could that be why my stomach hurts?") state it.
        if (s.question && turn.role === 'CLINICIAN') polarity = !answer ? { pos: false, neg: false } : NO.test(answer) ? { pos: negative, neg: true } : YES.test(answer) ? { pos: !negative, neg: negative } : { pos: true, neg: false };
        facts.push({ ...f, polarity, ...(reaction && (f.kind === 'problem' || f.kind === 'negation') && !/allerg/.test(f.text) ? { reaction: true } : {}) });
      }
    }
    // A drug named in the answer to "any allergies?" ("yes, penicillin gives me hives") is the allergen, as if the
    // patient had said "allergic to penicillin"; "no, I only take metformin" names none.
    if (askedAllergies && !NO.test(turn.text.trim()))
      for (const f of [...facts]) if (f.kind === 'drug' && !facts.some((g) => g.kind === 'allergy' && g.key === `allergy:${f.key}`)) facts.push({ kind: 'allergy', text: f.text, key: `allergy:${f.key}`, polarity: { pos: true, neg: false } });
    return {
      id: turn.tid,
      index,
      role: turn.role,
      text: turn.text,
      tokens: new Set(normaliseForMatching(turn.text).split(' ')),
      facts,
      agrees: turn.role === 'PATIENT' && AGREES.test(turn.text),
    };
  });
  return [...entries, ...contextEntries(context)];
}
