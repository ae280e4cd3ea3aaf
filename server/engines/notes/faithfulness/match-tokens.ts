/**
 * Tokens of already lower-cased text: words, numbers with their decimals and fractions ("1.5", "120/80"),
 * hyphenated terms ("x-ray") and "%" on its own. The same rule as the engine's lexicon tokenizer, which the
 * drug and condition matchers are keyed by, plus the percent sign.
 */
export function matchTokens(text: string): string[] {
  return text.match(/[a-z0-9]+(?:['.\-/][a-z0-9]+)*|%/g) ?? [];
}
