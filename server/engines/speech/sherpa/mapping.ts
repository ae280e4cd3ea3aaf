import { segmentConfidence } from '../embedded.js';
import { spread as spreadWords } from '../openai-mapping.js';
import type { SpeechSegment, WordTiming } from '../types.js';

/** What the engine needs from a sherpa-onnx result, offline or online. */
export interface TokenResult {
  text: string;
  tokens: string[];
  /** Seconds from the start of the decoded audio, one per token (empty for families that give none). */
  timestamps: number[];
  durations?: number[];
  /** Per-token log posteriors where the family gives them. */
  logProbs?: number[];
  /** `<|en|>` from SenseVoice, `en` from Whisper, empty otherwise. */
  lang?: string;
}

/** A token that begins a word: SentencePiece's ▁ (shown by sherpa-onnx as a space) or a byte-BPE space. */
const startsWord = (t: string) => /^[\s▁]/.test(t);
const clean = (t: string) => t.replace(/[\s▁]+/g, '');
/** A CTC spike marks where a token was heard, not how long it lasted; a word is not taken to last longer. */
const MAX_TOKEN_S = 0.5;

export function langCode(raw: string | undefined): string | undefined {
  const m = /^<\|?([a-z]{2,3})\|?>$/i.exec(raw?.trim() ?? '') ?? /^([a-z]{2,3})$/i.exec(raw?.trim() ?? '');
  return m ? m[1]!.toLowerCase() : undefined;
}

function tokenWords(r: TokenResult, offsetMs: number, endS: number): WordTiming[] {
  const groups: number[][] = [];
  r.tokens.forEach((t, i) => {
    if (!clean(t)) return;
    if (!groups.length || startsWord(t)) groups.push([i]);
    else groups[groups.length - 1]!.push(i);
  });
  const tokenEnd = (i: number) => {
    const t = r.timestamps[i]!;
    if (r.durations?.[i]) return t + r.durations[i]!;
    return Math.min(r.timestamps[i + 1] ?? endS, t + MAX_TOKEN_S, endS);
  };
  return groups.map((g) => {
    const w: WordTiming = {
      word: g.map((i) => clean(r.tokens[i]!)).join(''),
      startMs: Math.round(offsetMs + r.timestamps[g[0]!]! * 1000),
      endMs: Math.round(offsetMs + Math.max(tokenEnd(g[g.length - 1]!), r.timestamps[g[0]!]! + 0.01) * 1000),
    };
    const lp = g.map((i) => r.logProbs?.[i]).filter((p): p is number => p !== undefined);
    if (lp.length) w.confidence = Math.round(Math.exp(lp.reduce((a, b) => a + b, 0) / lp.length) * 1000) / 1000;
    return w;
  });
}

/**
 * A decoded stretch of audio as a transcript segment: words from the tokens where the family gives token
 * timestamps (their spans end at the next token, or half a second, whichever is sooner), spread over the
 * stretch otherwise or when text normalisation rewrote the tokens (SenseVoice's numbers). Confidence comes
 * from the token posteriors where the family gives them; the language from SenseVoice's and Whisper's
 * language token, else the model's one language.
 */
export function toSegment(r: TokenResult, offsetMs: number, durationMs: number, modelLang?: string): SpeechSegment | null {
  const text = r.text.trim();
  if (!text) return null;
  const hasTimes = r.timestamps.length === r.tokens.length && r.tokens.length > 0;
  let words = hasTimes ? tokenWords(r, offsetMs, durationMs / 1000) : [];
  const spaced = (t: string) => t.replace(/▁/g, ' ').replace(/\s+/g, ' ').trim();
  if (!words.length || words.map((w) => w.word).join(' ') !== spaced(text)) {
    const from = words[0]?.startMs ?? offsetMs;
    const to = words.length ? words[words.length - 1]!.endMs : offsetMs + durationMs;
    words = spreadWords(text, from, Math.max(to, from + 10));
  }
  const seg: SpeechSegment = {
    text: words.map((w) => w.word).join(' '),
    startMs: words[0]!.startMs,
    endMs: words[words.length - 1]!.endMs,
    isFinal: true,
    words,
  };
  const lang = langCode(r.lang) ?? modelLang;
  if (lang) seg.lang = lang;
  const confidence = segmentConfidence(words);
  if (confidence !== undefined) seg.confidence = confidence;
  return seg;
}
