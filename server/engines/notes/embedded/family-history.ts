/**
 * Family history: a blood relative's condition the visit states ("my mother had breast cancer"). It is read as a
 * relative's and so never coded as the patient's; without this it reached no part of the note (a browser trial, 3 Dec).
 */
import { conditionMentions } from './analyze';
import type { NoteContext, Piece } from './compose';
import { pronouns } from './text';

// Blood relatives only: a spouse's or a friend's illness is no family history.
const BLOOD_RELATIVE = /\b(?:(?:maternal|paternal) )?(?:mother|father|mom|dad|sister|brother|grandmother|grandfather|grandma|grandpa|aunt|uncle|cousin|son|daughter|parents|siblings?|twin)s?\b/;
const PLAIN: Record<string, string> = { mom: 'mother', dad: 'father', grandma: 'grandmother', grandpa: 'grandfather' };

/** "Family history of breast cancer in their mother." for each relative's condition stated, in the order said. */
export function familyHistory(ctx: NoteContext): Piece[] {
  const { analysis } = ctx;
  const out: Piece[] = [];
  const seen = new Set<string>();
  for (const s of analysis.sentences) {
    if (s.question) continue;
    for (const m of conditionMentions(s)) {
      if (!m.family || m.negated) continue;
      const relative = BLOOD_RELATIVE.exec(s.tokens.slice(Math.max(0, m.start - 8), m.start).join(' '))?.[0];
      if (!relative) continue;
      const who = relative.split(' ').map((w) => PLAIN[w] ?? w).join(' ');
      const text = `Family history of ${m.surface} in ${pronouns(analysis.sex).poss} ${who}.`;
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ text, src: [s.tid] });
    }
  }
  return out;
}
