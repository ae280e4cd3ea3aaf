import { extractFacts } from '../faithfulness/index';
import type { Fact } from '../faithfulness/index';

// Clause boundaries inside one sentence: a list or a second clause ("…, and start warfarin 5 mg").
const SEPARATOR = /(,\s+and\s+|;\s+|,\s+|\s+and\s+|\s+but\s+)/;

/**
 * The sentence without the clauses that state an unsupported fact, when other clauses remain: "Continue
 * metformin 500 mg twice daily and start warfarin 5 mg daily." loses "start warfarin 5 mg daily" only.
 * Undefined when the fact cannot be cut out on its own (the caller then drops the sentence).
 */
export function trimSpan(sentence: string, unsupported: Fact[]): { kept: string; removed: string } | undefined {
  const end = /[.!?]\s*$/.exec(sentence)?.[0].trim() ?? '.';
  const parts = sentence.replace(/[.!?]\s*$/, '').split(SEPARATOR);
  if (parts.length < 3) return undefined;
  const states = (clause: string) => extractFacts(clause).some((f) => unsupported.some((u) => u.kind === f.kind && u.key === f.key));
  const kept: string[] = [];
  const removed: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (states(parts[i])) removed.push(parts[i].trim());
    else kept.push(kept.length ? `${parts[i - 1]}${parts[i]}` : parts[i]);
  }
  if (!removed.length || !kept.length) return undefined;
  const text = kept.join('').trim();
  return { kept: `${text.charAt(0).toUpperCase()}${text.slice(1)}${end}`, removed: removed.join('; ') };
}
