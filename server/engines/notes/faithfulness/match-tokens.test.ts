import { describe, expect, it } from 'vitest';
import { matchTokens } from './match-tokens';

describe('matchTokens', () => {
  it('keeps decimals, fractions, hyphenated words and percent signs whole', () => {
    expect(matchTokens("0.4 mg, 120/80, x-ray, 98 %, she's")).toEqual(['0.4', 'mg', '120/80', 'x-ray', '98', '%', "she's"]);
  });
});
