import { describe, expect, it } from 'vitest';
import { ipaToCmu } from './g2p.js';
import { EOS, Mixture, Unigram, WittenBellTrigram, fitWeights, writeArpa } from './ngram.js';
import { normalizeSentences, normalizeWords, numberToWords } from './normalize.js';
import { wordErrorRate } from '../wer.js';

describe('spoken-form normalisation', () => {
  it('spells numbers, ages, ratios and units as they are said', () => {
    expect(numberToWords(58)).toEqual(['fifty', 'eight']);
    expect(numberToWords(1200)).toEqual(['one', 'thousand', 'two', 'hundred']);
    expect(normalizeWords('A 58-year-old, BP 120/80, A1c 8.2, 20mg.')).toEqual(
      'a fifty eight year old bp one hundred twenty over eighty a one c eight point two twenty milligrams'.split(' '),
    );
    expect(normalizeSentences('[doctor] how are you ?\n[patient] mm-hmm .')).toEqual([['how', 'are', 'you'], ['mm-hmm']]);
  });
});

describe('word error rate', () => {
  it('counts substitutions, deletions and insertions on normalised words', () => {
    expect(wordErrorRate('the knee hurts', 'the knee hurts').wer).toBe(0);
    const r = wordErrorRate('my knee hurts a lot', 'my need hurts lot today');
    expect(r.errors).toBe(3);
    expect(r.refWords).toBe(5);
    expect(wordErrorRate('She is 58.', 'she is fifty eight').wer).toBe(0);
  });
});

describe('n-gram estimation', () => {
  const sents = [
    ['how', 'are', 'you'],
    ['how', 'is', 'your', 'knee'],
    ['my', 'knee', 'hurts'],
    ['how', 'are', 'you', 'feeling'],
  ];
  const vocab = ['how', 'are', 'you', 'is', 'your', 'knee', 'my', 'hurts', 'feeling', 'pain'];
  const inV = (w: string) => vocab.includes(w);

  it('Witten-Bell gives a proper distribution for every history, unseen words included', () => {
    const m = new WittenBellTrigram(sents, vocab.length + 1, inV);
    for (const h of [[], ['how'], ['<s>', 'how'], ['my', 'knee'], ['pain', 'pain']]) {
      const total = [...vocab, EOS].reduce((a, w) => a + m.prob(w, h), 0);
      expect(total).toBeCloseTo(1, 6);
    }
    expect(m.prob('are', ['<s>', 'how'])).toBeGreaterThan(m.prob('knee', ['<s>', 'how']));
    expect(m.prob('pain', ['my'])).toBeGreaterThan(0);
  });

  it('EM moves weight to the component that predicts held-out text', () => {
    const a = new WittenBellTrigram(sents, vocab.length + 1, inV);
    const b = new Unigram(new Map([['pain', 1]]));
    const w = fitWeights([a, b], [['my', 'knee', 'hurts']], inV);
    expect(w[0]).toBeGreaterThan(0.9);
  });

  it('writes an ARPA model whose counts match its sections', () => {
    const a = new WittenBellTrigram(sents, vocab.length + 1, inV);
    const arpa = writeArpa(new Mixture([a], [1]), [a], ['<s>', ...vocab]);
    const count = (n: number) => Number(new RegExp(`ngram ${n}=(\\d+)`).exec(arpa)![1]);
    const section = (n: number) => arpa.split(`\\${n}-grams:`)[1]!.split('\n\n')[0]!.trim().split('\n').length;
    for (const n of [1, 2, 3]) expect(section(n)).toBe(count(n));
    expect(arpa).toMatch(/\t<\/s>/);
    expect(arpa.trim().endsWith('\\end\\')).toBe(true);
  });
});

describe('IPA to CMU phones', () => {
  it('maps espeak-ng output for a drug name to CMU phones', () => {
    expect(ipaToCmu('mˈɛtfoːɹmˌɪn')).toEqual(['M', 'EH', 'T', 'F', 'AO', 'R', 'M', 'IH', 'N']);
    expect(ipaToCmu('tʃˈeɪndʒ')).toEqual(['CH', 'EY', 'N', 'JH']);
  });
});
