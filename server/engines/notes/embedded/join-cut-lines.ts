import type { TranscriptLine } from '../types';

// Words no sentence starts with: what follows a number, or the number's own tail ("one fifty" / "over ninety five").
const CONTINUES = /^(?:over|milligrams?|mg|micrograms?|mcg|grams?|units?|tablets?|pills?|capsules?|puffs?|times|twice|once|hundred|thousand|per)\b/i;
// A pause longer than this is a new utterance, even on such a word.
const MAX_GAP_MS = 1500;

/**
 * The recogniser's segmenter cuts an utterance at a pause, even mid-sentence ("it has been running around one fifty"
 * / "over ninety five"; "yes metformin one pounds" / "milligrams twice a day", recorded visits of issue 27): read
 * apart, the note said "running around 150" and "reports milligrams twice daily". A line of the same speaker that
 * starts soon after and on a word no sentence starts with is joined to the line before. `joined` maps the kept
 * line's id to the ids joined into it, so the note's evidence still names every line.
 */
export function joinCutLines(lines: TranscriptLine[]): { lines: TranscriptLine[]; joined: Map<string, string[]> } {
  const out: TranscriptLine[] = [];
  const joined = new Map<string, string[]>();
  for (const line of lines) {
    const prev = out.at(-1);
    if (prev && prev.speaker === line.speaker && line.startMs - prev.endMs <= MAX_GAP_MS && !/[.?!]\s*$/.test(prev.text) && CONTINUES.test(line.text.trim())) {
      out[out.length - 1] = { ...prev, text: `${prev.text} ${line.text}`, endMs: line.endMs, ...(prev.words && line.words ? { words: [...prev.words, ...line.words] } : {}) };
      joined.set(prev.transcriptId, [...(joined.get(prev.transcriptId) ?? []), line.transcriptId]);
    } else out.push(line);
  }
  return { lines: out, joined };
}

/** Every `source_transcripts` list in the result names the lines joined into one it names too. */
export function withJoinedIds<T>(value: T, joined: Map<string, string[]>): T {
  if (!joined.size) return value;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === 'source_transcripts' && Array.isArray(x) ? [...new Set(x.flatMap((id: string) => [id, ...(joined.get(id) ?? [])]))] : walk(x)]),
    );
  };
  return walk(value) as T;
}
