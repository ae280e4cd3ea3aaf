/**
 * Spoken-form text normalisation shared by the language-model build and word-error scoring: lower case,
 * digits spelt out as they are said, punctuation removed, so that a reference and a recogniser's output
 * (which never contains digits or punctuation) compare word for word.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORD: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

export function numberToWords(n: number): string[] {
  if (!Number.isFinite(n) || n < 0) return [];
  if (n < 20) return [ONES[n]!];
  if (n < 100) return n % 10 ? [TENS[Math.floor(n / 10)]!, ONES[n % 10]!] : [TENS[n / 10]!];
  if (n < 1000) return [ONES[Math.floor(n / 100)]!, 'hundred', ...(n % 100 ? numberToWords(n % 100) : [])];
  if (n < 1_000_000) return [...numberToWords(Math.floor(n / 1000)), 'thousand', ...(n % 1000 ? numberToWords(n % 1000) : [])];
  return [...numberToWords(Math.floor(n / 1_000_000)), 'million', ...(n % 1_000_000 ? numberToWords(n % 1_000_000) : [])];
}

function ordinal(words: string[]): string[] {
  const last = words[words.length - 1]!;
  const o = ORD[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words.slice(0, -1), o];
}

/** One token with digits → spoken words ("58" → fifty eight, "2.5" → two point five, "1st" → first). */
function spellNumber(tok: string): string[] {
  let m = /^(\d+)(st|nd|rd|th)$/.exec(tok);
  if (m) return ordinal(numberToWords(Number(m[1])));
  m = /^(\d+)\.(\d+)$/.exec(tok);
  if (m) return [...numberToWords(Number(m[1])), 'point', ...m[2]!.split('').map((d) => ONES[Number(d)]!)];
  m = /^(\d+)'?s$/.exec(tok);
  if (m) {
    const w = numberToWords(Number(m[1]));
    const last = w[w.length - 1]!;
    return [...w.slice(0, -1), last.endsWith('y') ? `${last.slice(0, -1)}ies` : `${last}s`];
  }
  if (/^\d+$/.test(tok)) {
    const n = Number(tok);
    // Years and four-digit numbers are said in pairs ("nineteen eighty").
    if (tok.length === 4 && n >= 1100 && n < 2000) return [...numberToWords(Math.floor(n / 100)), ...numberToWords(n % 100)];
    return numberToWords(n);
  }
  // Mixed tokens such as "a1c", "l5", "20mg": split letters from digits.
  return tok
    .split(/(\d+)/)
    .filter(Boolean)
    .flatMap((p) => (/^\d+$/.test(p) ? numberToWords(Number(p)) : p === 'mg' ? ['milligrams'] : [p]));
}

/** Splits text into sentences of normalised words. */
export function normalizeSentences(text: string): string[][] {
  const out: string[][] = [];
  const t = text
    .toLowerCase()
    .replace(/\[[a-z_]+\]/g, '\n')
    .replace(/[’‘]/g, "'")
    // ACI-BENCH keeps Penn Treebank splits ("do n't", "gon na"); people say, and recognisers write, one word.
    .replace(/([a-z]) n't\b/g, "$1n't")
    .replace(/\b(gon|wan|got) (na|ta)\b/g, '$1$2')
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/(\d+)\s*%/g, '$1 percent')
    .replace(/\$(\d+)/g, '$1 dollars')
    .replace(/(\d+)\/(\d+)/g, '$1 over $2')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ');
  for (const sentence of t.split(/[.?!;:\n]+(?:\s|$)/)) {
    const words: string[] = [];
    for (let tok of sentence.split(/[\s,"()/]+/)) {
      tok = tok.replace(/^[-'.]+|[-'.]+$/g, '');
      if (!tok) continue;
      // Hyphenated compounds are said as separate words ("58-year-old"); "mm-hmm" and the like stay whole.
      const parts = /^(mm-hmm|uh-huh|uh-oh|x-ray|x-rays)$/.test(tok) ? [tok] : tok.split('-');
      for (const p of parts) {
        if (!p) continue;
        if (/\d/.test(p)) words.push(...spellNumber(p.replace(/\./g, (m, i: number) => (/\d/.test(p[i - 1] ?? '') && /\d/.test(p[i + 1] ?? '') ? m : ''))));
        else if (p === 'mg') words.push('milligrams');
        else if (/^[a-z][a-z'.-]*$/.test(p)) words.push(p.replace(/\./g, ''));
      }
    }
    if (words.length) out.push(words);
  }
  return out;
}

export function normalizeWords(text: string): string[] {
  return normalizeSentences(text).flat();
}
