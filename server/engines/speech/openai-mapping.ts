/** Mapping between this project's speech types and the OpenAI transcription API: prompt out, segments in. */
import type { SpeechBias, SpeechSegment, WordTiming } from './types.js';
import type { VerboseJson } from './openai-client.js';

/**
 * A session's context as the transcription `prompt`, which Whisper-style models read as preceding text:
 * spelling the visit's terms there makes the model prefer them. Kept under ~200 tokens, the prompt window.
 */
export function biasPrompt(bias: SpeechBias | undefined): string | undefined {
  if (!bias) return undefined;
  const terms = [...new Set(bias.terms.map((t) => t.trim()).filter(Boolean))];
  if (!terms.length && !bias.text?.trim()) return undefined;
  let prompt = terms.length ? `Clinic visit. ${terms.join(', ')}.` : 'Clinic visit.';
  if (bias.text?.trim()) prompt += ` ${bias.text.trim().replace(/\s+/g, ' ')}`;
  return prompt.length > 800 ? prompt.slice(0, 800).replace(/\s\S*$/, '') : prompt;
}

/** exp(avg_logprob) of a segment, in [0, 1], or undefined when the server gave none. */
function logprobConfidence(avg: number | undefined): number | undefined {
  if (typeof avg !== 'number' || !Number.isFinite(avg)) return undefined;
  return Math.round(Math.min(1, Math.max(0, Math.exp(avg))) * 1000) / 1000;
}

/** Maps an OpenAI transcription response to final segments with absolute times. */
export function toSegments(body: VerboseJson, offsetMs: number, durationMs: number, lang?: string): SpeechSegment[] {
  const ms = (s: number) => Math.round(offsetMs + s * 1000);
  const words: WordTiming[] = (body.words ?? [])
    .map((w) => ({ word: w.word.trim(), startMs: ms(w.start), endMs: ms(w.end) }))
    .filter((w) => w.word);
  const language = body.language ? normaliseLang(body.language) : lang;
  if (body.segments?.length) {
    return body.segments
      .filter((s) => s.text.trim())
      .map((s) => {
        const startMs = ms(s.start);
        const endMs = ms(s.end);
        const inSeg = words.filter((w) => w.startMs >= startMs - 50 && w.startMs < endMs);
        const confidence = logprobConfidence(s.avg_logprob);
        // The API scores segments, not words: each word carries its segment's confidence.
        const segWords = (inSeg.length ? inSeg : spread(s.text, startMs, endMs)).map((w) => (confidence !== undefined ? { ...w, confidence } : w));
        return {
          text: s.text.trim(),
          startMs,
          endMs,
          isFinal: true,
          words: segWords,
          ...(confidence !== undefined ? { confidence } : {}),
          ...(language ? { lang: language } : {}),
        };
      });
  }
  const text = (body.text ?? '').trim();
  if (!text) return [];
  const startMs = words[0]?.startMs ?? Math.round(offsetMs);
  const endMs = words.at(-1)?.endMs ?? Math.round(offsetMs + durationMs);
  return [
    {
      text,
      startMs,
      endMs,
      isFinal: true,
      words: words.length ? words : spread(text, startMs, endMs),
      ...(language ? { lang: language } : {}),
    },
  ];
}

/**
 * Plain `json` responses carry no timings; word times are spread by character length so that playback
 * highlighting and speaker attribution still have something proportionate to work with.
 */
export function spread(text: string, startMs: number, endMs: number): WordTiming[] {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const total = tokens.reduce((a, t) => a + t.length + 1, 0);
  let t = startMs;
  return tokens.map((word) => {
    const d = ((endMs - startMs) * (word.length + 1)) / total;
    const w = { word, startMs: Math.round(t), endMs: Math.round(t + d) };
    t += d;
    return w;
  });
}

const LANGS: Record<string, string> = { english: 'en', spanish: 'es', french: 'fr', german: 'de' };
function normaliseLang(l: string): string {
  const k = l.toLowerCase();
  return LANGS[k] ?? k;
}
