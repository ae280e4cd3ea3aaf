/**
 * The 62 s asthma and cholesterol follow-up recorded in Chromium on 28 Nov (recorded-asthma-lipids-62s.json): the
 * asthma's coded diagnosis note read "Their asthma is not well controlled. We will." — the plan's two sentences were
 * resolved as one, so the unsure words of the second ("we will [restart] fluticasone [two] hundred …") cut the whole
 * note down to its clear prefix, a fragment.
 */
import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-asthma-lipids-62s.json';

describe('a coded diagnosis note of two plan sentences, the second said unsure', () => {
  const r = new EmbeddedNotesEngine().generateSync({ transcript: recordedTranscript(RECORDED as RecordedLine[]), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const asthma = r.structured_data.diagnoses.values.find((d) => d.codes[0].code.startsWith('J45'));

  it('keeps the first sentence whole and never ends in a fragment', () => {
    expect(asthma?.diagnosis_note).toMatch(/^Their asthma is not well controlled\./);
    expect(asthma?.diagnosis_note).not.toMatch(/\bWe will\.$/);
    for (const d of r.structured_data.diagnoses.values) expect(d.diagnosis_note.split(/(?<=\.)\s+/).every((s) => s.split(' ').length >= 3)).toBe(true);
  });
});
