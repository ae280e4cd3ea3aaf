import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from '../embedded/dialogue';
import { buildEvidenceIndex } from './build-evidence-index';
import { extractFacts } from './extract-facts';
import { supportFact } from './support-fact';

const entries = buildEvidenceIndex(dialogueToTranscript(`[doctor] Your blood pressure is one twenty over eighty.
[doctor] I smoke, about ten cigarettes a day.
[doctor] We will get some blood work and an x-ray.
[doctor] I will start amlodipine. Take five milligrams every day.`));
const support = (text: string, cited: string[] = []) => extractFacts(text).map((f) => supportFact(f, entries, new Set(cited)));

describe('supportFact', () => {
  it('adds the unit a scribe writes to a bare number, never another unit', () => {
    expect(support('BP 120/80 mmHg.')[0]).toMatchObject({ supported: true, evidence: ['t1'] });
    expect(support('120/80 weeks.')[0]).toMatchObject({ supported: false, reason: 'not-in-transcript' });
  });

  it('ties a dose to a drug said in the same or the next entry', () => {
    expect(support('Amlodipine 5 mg daily.').map((r) => r.supported)).toEqual([true, true, true]);
  });

  it('accepts a generic test word for a named test of its class', () => {
    expect(support('Labs and imaging were ordered.').map((r) => r.supported)).toEqual([true, true]);
    expect(support('We will order a CBC.')[0]).toMatchObject({ supported: false });
  });

  it('falls back to the words of a problem the lexicon reads only in the note', () => {
    expect(support('He smokes.')[0]).toMatchObject({ supported: true, evidence: ['t2'] });
  });

  it('narrows evidence to the cited entry when it states the fact', () => {
    expect(support('Blood pressure 120/80.', ['t1'])[0].evidence).toEqual(['t1']);
  });
});
