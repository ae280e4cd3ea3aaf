import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TranscriptText } from './TranscriptText';
import { transcriptParts, uncertainWords } from './transcript-parts';

const d = (ms: number) => ({ hours: 0, minutes: 0, seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });
const entry = (transcript: string, words: [string, number][]) => ({
  transcript,
  words: words.map(([text, confidence], i) => ({ text, confidence, start_offset: d(i * 300), end_offset: d(i * 300 + 250) })),
});

describe('low-confidence marking in the transcript view', () => {
  it('marks the words below the threshold and joins neighbouring ones into one run', () => {
    const e = entry('I will start listen april ten milligrams', [['i', 0.9], ['will', 0.8], ['start', 1], ['listen', 0.04], ['april', 0.01], ['ten', 1], ['milligrams', 1]]);
    expect(transcriptParts(e)).toEqual([
      { text: 'I will start ', low: false },
      { text: 'listen april', low: true },
      { text: ' ten milligrams', low: false },
    ]);
    expect(uncertainWords(e)).toEqual(['listen april']);
  });

  it('matches punctuated text to the recognised words', () => {
    const e = entry('Start lisinopril, ten milligrams.', [['start', 1], ['lisinopril', 0.3], ['ten', 0.9], ['milligrams', 0.9]]);
    expect(transcriptParts(e).filter((p) => p.low).map((p) => p.text)).toEqual(['lisinopril,']);
  });

  it('leaves an entry without words or without uncertain words unmarked', () => {
    expect(transcriptParts({ transcript: 'hello there' })).toEqual([{ text: 'hello there', low: false }]);
    expect(transcriptParts(entry('hello there', [['hello', 0.9], ['there', 0.5]]))).toEqual([{ text: 'hello there', low: false }]);
  });

  it('renders a dotted underline titled "low confidence" around the uncertain words only', () => {
    const html = renderToStaticMarkup(createElement(TranscriptText, { entry: entry('go forward can meters', [['go', 0.3], ['forward', 0.8], ['can', 0.15], ['meters', 0.9]]) }));
    const marked = [...html.matchAll(/<span[^>]*title="low confidence"[^>]*>([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(marked).toEqual(['go', 'can']);
    expect(html).toContain('decoration-dotted');
  });
});
