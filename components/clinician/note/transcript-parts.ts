import { isLowConfidence } from '@/lib/transcript/confidence';
import type { TranscriptEntry } from '@/lib/contracts/sessions';

export interface TranscriptPart {
  text: string;
  low: boolean;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9']/g, '');

/**
 * The entry's text split into runs, each flagged when its words fell below the recogniser's confidence
 * threshold. The text is what is shown (an engine may punctuate it); its tokens are matched in order to the
 * recognised words, looking a few words ahead so that a token the engine split or merged does not shift
 * every later mark.
 */
export function transcriptParts(entry: Pick<TranscriptEntry, 'transcript' | 'words'>): TranscriptPart[] {
  const tokens = entry.transcript.split(/(\s+)/).filter(Boolean);
  const words = entry.words ?? [];
  if (!words.some((w) => isLowConfidence(w.confidence))) return [{ text: entry.transcript, low: false }];
  const parts: TranscriptPart[] = [];
  const push = (text: string, low: boolean) => {
    const last = parts.at(-1);
    if (last && last.low === low) last.text += text;
    else parts.push({ text, low });
  };
  let j = 0;
  for (const tok of tokens) {
    if (/^\s+$/.test(tok)) {
      push(tok, false);
      continue;
    }
    const n = norm(tok);
    let k = -1;
    for (let i = j; i < Math.min(words.length, j + 4); i++) if (norm(words[i]!.text) === n) (k = i), (i = words.length);
    if (k < 0) {
      push(tok, false);
      continue;
    }
    j = k + 1;
    push(tok, isLowConfidence(words[k]!.confidence));
  }
  // A space between two uncertain words belongs to the marked run, so one underline spans the phrase.
  for (let i = 1; i + 1 < parts.length; i++) {
    if (!parts[i]!.low && /^\s+$/.test(parts[i]!.text) && parts[i - 1]!.low && parts[i + 1]!.low) {
      parts[i - 1]!.text += parts[i]!.text + parts[i + 1]!.text;
      parts.splice(i, 2);
      i--;
    }
  }
  return parts;
}

/** The uncertain words of an entry, for its accessible name. */
export function uncertainWords(entry: Pick<TranscriptEntry, 'transcript' | 'words'>): string[] {
  return transcriptParts(entry)
    .filter((p) => p.low)
    .map((p) => p.text.trim());
}
