/**
 * Pronunciations for words missing from CMUdict: espeak-ng's letter-to-sound rules (it handles drug
 * names and rare words far better than a hand-written rule set) give IPA, mapped here to CMU phones.
 */
import { execFileSync } from 'node:child_process';

/** Longest IPA sequences first so that diphthongs and r-coloured vowels win over their parts. */
const IPA_TO_CMU: [string, string[]][] = (
  [
    ['aɪɚ', ['AY', 'ER']], ['aɪə', ['AY', 'ER']], ['aʊɚ', ['AW', 'ER']],
    ['ɑːɹ', ['AA', 'R']], ['ɔːɹ', ['AO', 'R']], ['oːɹ', ['AO', 'R']], ['ɛɹ', ['EH', 'R']], ['ɪɹ', ['IH', 'R']], ['ʊɹ', ['UH', 'R']], ['iɹ', ['IH', 'R']],
    ['eɪ', ['EY']], ['aɪ', ['AY']], ['aʊ', ['AW']], ['ɔɪ', ['OY']], ['oʊ', ['OW']], ['əʊ', ['OW']],
    ['tʃ', ['CH']], ['dʒ', ['JH']], ['ɜː', ['ER']], ['ɑː', ['AA']], ['ɔː', ['AO']], ['iː', ['IY']], ['uː', ['UW']], ['oː', ['OW']],
    ['n̩', ['AH', 'N']], ['l̩', ['AH', 'L']], ['m̩', ['AH', 'M']],
    ['ɚ', ['ER']], ['ɝ', ['ER']], ['ɑ', ['AA']], ['æ', ['AE']], ['ʌ', ['AH']], ['ə', ['AH']], ['ɐ', ['AH']], ['ɔ', ['AO']], ['ɒ', ['AA']],
    ['ɛ', ['EH']], ['e', ['EH']], ['ɪ', ['IH']], ['ᵻ', ['IH']], ['i', ['IY']], ['ʊ', ['UH']], ['u', ['UW']], ['o', ['OW']], ['a', ['AA']],
    ['b', ['B']], ['d', ['D']], ['ð', ['DH']], ['f', ['F']], ['ɡ', ['G']], ['g', ['G']], ['h', ['HH']], ['k', ['K']], ['l', ['L']], ['ɫ', ['L']],
    ['m', ['M']], ['n', ['N']], ['ŋ', ['NG']], ['p', ['P']], ['ɹ', ['R']], ['r', ['R']], ['s', ['S']], ['ʃ', ['SH']], ['t', ['T']], ['ɾ', ['T']],
    ['θ', ['TH']], ['v', ['V']], ['w', ['W']], ['j', ['Y']], ['z', ['Z']], ['ʒ', ['ZH']], ['ʔ', ['T']], ['x', ['K']], ['ç', ['HH']],
  ] as [string, string[]][]
).sort((a, b) => b[0].length - a[0].length);

/** Marks that carry no phone: stress, length on its own, syllable breaks, tie bars. */
const IGNORED = /[ˈˌ.ː‿͡ \-]/;

export function ipaToCmu(ipa: string): string[] {
  const out: string[] = [];
  let i = 0;
  const s = ipa.normalize('NFD');
  while (i < s.length) {
    const match = IPA_TO_CMU.find(([k]) => s.startsWith(k.normalize('NFD'), i));
    if (match) {
      out.push(...match[1]);
      i += match[0].normalize('NFD').length;
    } else i++; // IGNORED marks and any symbol without an English counterpart
  }
  void IGNORED;
  return out;
}

/** Pronounces many words with one espeak-ng process (one word per sentence so output lines align). */
export function espeakPronounce(words: string[], voice = 'en-us'): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const BATCH = 500;
  for (let b = 0; b < words.length; b += BATCH) {
    const batch = words.slice(b, b + BATCH);
    const input = batch.map((w) => `${w.replace(/[^a-z']/g, ' ')}.`).join('\n');
    const out = execFileSync('espeak-ng', ['-q', '--ipa', '-v', voice], { input, encoding: 'utf8' });
    const lines = out.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length !== batch.length) {
      // Fall back to one call per word when espeak merged or split lines.
      for (const w of batch) {
        const l = execFileSync('espeak-ng', ['-q', '--ipa', '-v', voice, `${w}.`], { encoding: 'utf8' }).trim();
        const phones = ipaToCmu(l);
        if (phones.length) result.set(w, phones);
      }
      continue;
    }
    batch.forEach((w, i) => {
      const phones = ipaToCmu(lines[i]!);
      if (phones.length) result.set(w, phones);
    });
  }
  return result;
}
