import { fleschKincaid } from 'flesch-kincaid';
import { syllable } from 'syllable';

/**
 * Flesch-Kincaid grade level of a text (0.39 words/sentence + 11.8 syllables/word − 15.59). Sentences
 * end at . ! ? or a line break (list items are sentences); numbers and units count as words.
 */
export function readingGrade(text: string): number {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[A-Za-z0-9]/.test(s));
  const words = sentences.flatMap((s) => s.split(/\s+/)).map((w) => w.replace(/[^A-Za-z0-9'-]/g, '')).filter(Boolean);
  if (words.length === 0) return 0;
  const syllables = words.reduce((n, w) => n + Math.max(1, /^[0-9]/.test(w) ? 1 : syllable(w)), 0);
  return Math.round(fleschKincaid({ sentence: sentences.length, word: words.length, syllable: syllables }) * 10) / 10;
}
