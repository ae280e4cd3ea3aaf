/**
 * Reads a sphinxbase trie binary language model (Debian's en-us.lm.bin) into plain n-gram tables, for the
 * offline build of one merged model (scripts/speech/build-lm.ts). `sphinx_lm_convert -ofmt arpa` cannot do
 * this: Debian's libsphinxbase3 aborts on an assertion after the unigrams. The layout follows sphinxbase's
 * ngram_model_trie.c / lm_trie.c / lm_trie_quant.c: a header and counts, 16-bit quantisation tables, the
 * unigram array, then bit-packed middle (bigram) and longest (trigram) arrays keyed in reverse (word, then
 * its history from the nearest word back). Trigram models only, as en-us.lm.bin is.
 */
import fs from 'node:fs';

export interface TrieNgrams {
  words: string[];
  /** log10 p(w) and log10 backoff per word id. */
  uniProb: Float32Array;
  uniBo: Float32Array;
  /** "h w" → [log10 p(w | h), log10 backoff of "h w"]. */
  bigrams: Map<string, [number, number]>;
  /** "h1 h2 w" → log10 p(w | h1 h2). */
  trigrams: Map<string, number>;
}

const HEADER = 'Trie Language Model';
const requiredBits = (max: number) => (max ? Math.floor(Math.log2(max)) + 1 : 0);

export function readTrieLm(file: string, logBase = 1.0001): TrieNgrams {
  const buf = fs.readFileSync(file);
  if (buf.subarray(0, HEADER.length).toString('latin1') !== HEADER) throw new Error(`${file} is not a sphinxbase trie language model`);
  let o = HEADER.length;
  const order = buf.readUInt8(o++);
  if (order !== 3) throw new Error(`${file}: only trigram models are read (order ${order})`);
  const counts = [0, 1, 2].map((i) => buf.readUInt32LE(o + 4 * i));
  o += 12;
  // The file's log values are in units of its log base (sphinxbase's default 1.0001).
  const toLog10 = Math.log10(logBase);
  o += 4; // unused int
  const table = (n: number) => {
    const t = new Float32Array(n);
    for (let i = 0; i < n; i++) t[i] = buf.readFloatLE(o + 4 * i) * toLog10;
    o += 4 * n;
    return t;
  };
  const midProb = table(1 << 16);
  const midBo = table(1 << 16);
  const longProb = table(1 << 16);
  const n1 = counts[0]!;
  const uniProb = new Float32Array(n1);
  const uniBo = new Float32Array(n1);
  const uniNext = new Uint32Array(n1 + 1);
  for (let i = 0; i <= n1; i++) {
    if (i < n1) {
      uniProb[i] = buf.readFloatLE(o) * toLog10;
      uniBo[i] = buf.readFloatLE(o + 4) * toLog10;
    }
    uniNext[i] = buf.readUInt32LE(o + 8);
    o += 12;
  }
  const wordBits = requiredBits(n1);
  const nextBits = requiredBits(counts[2]!);
  const midBits = wordBits + 32 + nextBits;
  const midStart = o;
  const midSize = Math.floor(((1 + counts[1]!) * midBits + 7) / 8) + 8;
  const longBits = wordBits + 16;
  const longStart = midStart + midSize;
  const longSize = Math.floor(((1 + counts[2]!) * longBits + 7) / 8) + 8;
  o = longStart + longSize;
  const k = buf.readInt32LE(o);
  const words = buf.subarray(o + 4, o + 4 + k).toString('latin1').split('\0').slice(0, n1);

  const read = (base: number, bit: number, len: number) => (buf.readUInt32LE(base + Math.floor(bit / 8)) >>> bit % 8) & (len === 32 ? 0xffffffff : (1 << len) - 1);
  const bigrams = new Map<string, [number, number]>();
  const trigrams = new Map<string, number>();
  for (let w = 0; w < n1; w++) {
    for (let p = uniNext[w]!; p < uniNext[w + 1]!; p++) {
      const at = p * midBits;
      const h = read(midStart, at, wordBits);
      const bo = midBo[read(midStart, at + wordBits, 16)]!;
      const prob = midProb[read(midStart, at + wordBits + 16, 16)]!;
      const begin = read(midStart, at + wordBits + 32, nextBits);
      const end = read(midStart, at + midBits + wordBits + 32, nextBits);
      bigrams.set(`${words[h]} ${words[w]}`, [prob, bo]);
      for (let q = begin; q < end; q++) {
        const lat = q * longBits;
        const h2 = read(longStart, lat, wordBits);
        trigrams.set(`${words[h2]} ${words[h]} ${words[w]}`, longProb[read(longStart, lat + wordBits, 16)]!);
      }
    }
  }
  return { words, uniProb, uniBo, bigrams, trigrams };
}
