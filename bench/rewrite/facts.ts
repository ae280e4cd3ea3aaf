/** The facts a rewrite must keep: every number, every drug ingredient and (when asked) every negation cue. */
const NUMBER = /\d+(?:\.\d+)?/g;
const NEGATION = /\b(?:no|not|denies|denied|without|negative|never|none)\b/gi;

const bag = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

/** What `before` states that `after` lost: numbers (each as often as it occurs), drugs, negation cues (count). */
export function factsLost(before: string, after: string, drugsOf: (t: string) => Set<string>, negations: boolean): string[] {
  const lost: string[] = [];
  const nb = bag(before.match(NUMBER) ?? []);
  const na = bag(after.match(NUMBER) ?? []);
  for (const [n, k] of nb) if ((na.get(n) ?? 0) < k) lost.push(`number ${n}`);
  const da = drugsOf(after);
  for (const d of drugsOf(before)) if (!da.has(d)) lost.push(`drug ${d}`);
  if (negations) {
    const kb = (before.match(NEGATION) ?? []).length;
    const ka = (after.match(NEGATION) ?? []).length;
    if (ka < kb) lost.push(`negations ${kb} → ${ka}`);
  }
  return lost;
}
