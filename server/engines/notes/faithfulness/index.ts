/** The faithfulness checker: what a note states, checked against what was said (issue 27 item 1; issue 32's guard). */
export { checkNoteFaithfulness } from './check-note-faithfulness';
export { extractFacts } from './extract-facts';
export { normaliseForMatching } from './normalise-for-matching';
export type * from './types';
