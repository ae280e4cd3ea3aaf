/**
 * Which sentences are allergy talk, and which drugs the visit names as allergens (split from analyze.ts). A drug
 * named as an allergen is never a medication taken or ordered (medications.ts), wherever it is said.
 */
import type { Sentence, Turn } from './sentence-types';
import { avoidedDrugs, findDrugs } from './meds';

const ALLERGY_STATED = /\b(?:allergic to|allerg(?:y|ies) to)\b/i;
const ALLERGY_ASKED = /\ballerg(?:y|ies|ic)\b/i;
const REACTION_CONT = /^(?:(?:and|but|so)\s+)?(?:it|they|that|which|this)\s+(?:gives?|gave|causes?|caused|makes?|made|breaks?|broke)\b|^(?:(?:and|but|so)\s+)?i (?:get|got|break|broke) (?:out|a rash|hives)\b/i;

/**
 * Sentences that state a drug allergy ("I am allergic to penicillin, it gives me a rash"), the answer to
 * an allergy question, and the reaction said after it in the same turn: their symptoms are the allergy's
 * reaction, not findings of this visit. Returns the ingredients the visit states as allergens.
 */
export function markAllergies(turns: Turn[]): Set<string> {
  const allergens = new Set<string>();
  const drugAllergens = new Set<string>();
  turns.forEach((turn, k) => {
    const asked = turns[k - 1]?.role === 'CLINICIAN' && turns[k - 1].sentences.at(-1)?.question && ALLERGY_ASKED.test(turns[k - 1].sentences.at(-1)!.text);
    let inAllergy = false;
    turn.sentences.forEach((s, j) => {
      if (ALLERGY_STATED.test(s.text) || (asked && j === 0 && turn.role === 'PATIENT')) inAllergy = true;
      else if (!(inAllergy && REACTION_CONT.test(s.text))) inAllergy = false;
      if (inAllergy) s.allergy = true;
      const named = ALLERGEN.exec(s.text);
      if (named) allergens.add(named[1]!.toLowerCase());
      for (const d of statedAllergens(s)) drugAllergens.add(d.ingredient);
      // "… the penicillin [allergy, unheard] was rash so we will avoid penicillin": a drug to avoid for a reaction said
      // with it (here, or by the other speaker just before, naming the drug) is an allergen however "allergy" was heard.
      const prior = turns[k - 1]?.sentences ?? [];
      const avoided = avoidedDrugs(s.text).filter(
        (d) => REACTION.test(s.text) || ALLERGY_ASKED.test(s.text) || prior.some((p) => REACTION.test(p.text) && findDrugs(p.text).some((x) => x.ingredient === d.ingredient)),
      );
      if (avoided.length) {
        s.allergy = true;
        s.allergens = [...new Set(avoided.map((d) => d.spoken))];
        for (const d of avoided) {
          drugAllergens.add(d.ingredient);
          allergens.add(d.spoken);
        }
      }
    });
  });
  // The allergy said back later ("I have noted the penicillin allergy with a rash", its "allergy" perhaps unheard) is
  // still the allergy: its reaction is no problem of this visit.
  if (!allergens.size) return drugAllergens;
  for (const s of turns.flatMap((t) => t.sentences)) {
    if (!s.allergy && REACTION.test(s.text) && !ORDERS_IT.test(s.text) && s.tokens.some((w) => allergens.has(w))) s.allergy = true;
  }
  return drugAllergens;
}

const ALLERGY_NEGATED = /\b(?:no|not|never|denies|deny|without|nkda|none)\b[^.]{0,25}\ballerg/i;
const ALLERGY_TALK_ENDS = /[.;!?]|\s(?:it|they|which|that|because|so|but|i|makes?|gives?|gave|causes?|caused|when|if)\s/i;

/** Drugs a statement (not a question, not a denial) names as allergens: "allergic to X", "allergy to X", "X allergy". */
function statedAllergens(s: Sentence): ReturnType<typeof findDrugs> {
  if (s.question || ALLERGY_NEGATED.test(s.text)) return [];
  const to = /\b(?:allergic|allerg(?:y|ies))\s+to\s+(.*)$/i.exec(s.text)?.[1];
  const before = /\b((?:[a-z-]+\s+){1,2})allerg(?:y|ies)\b/i.exec(s.text)?.[1];
  return [...(to ? findDrugs(to.split(ALLERGY_TALK_ENDS)[0]!) : []), ...(before ? findDrugs(before) : [])];
}
const ALLERGEN = /\b(?:allergic to|allerg(?:y|ies) to)\s+(?:the\s+|a\s+|an\s+)?([a-z]{4,})\b/i;
const REACTION = /\b(?:rash|hives|itch\w*|swelling|anaphyla\w*|reaction)\b/i;
const ORDERS_IT = /\b(?:prescrib\w*|start|give|order|take|taking)\b/i;
