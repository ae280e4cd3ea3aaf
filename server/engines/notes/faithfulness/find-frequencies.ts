import { FREQUENCY_PATTERNS } from '../embedded/vocab';

const GLOBAL = FREQUENCY_PATTERNS.map(([re, code]) => [new RegExp(re.source, 'gi'), code] as const);

/**
 * Dosing frequencies in a sentence as info-list codes (the engine's own FREQUENCY_PATTERNS): "twice a day",
 * "bid" and "twice daily" are all TWO_A_DAY. Where patterns overlap ("twice a day" also holds "a day"), the
 * one listed first wins, as in the engine's parser.
 */
export function findFrequencies(text: string): Array<{ code: string; said: string }> {
  const taken: Array<[number, number, string, string]> = [];
  for (const [re, code] of GLOBAL) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const [s, e] = [m.index, m.index + m[0].length];
      if (!taken.some(([a, b]) => s < b && e > a)) taken.push([s, e, code, m[0]]);
    }
  }
  return taken.sort((x, y) => x[0] - y[0]).map(([, , code, said]) => ({ code, said }));
}
