import { describe, expect, it } from 'vitest';
import { templateGroups } from './template-groups';

describe('templateGroups', () => {
  it('keeps "not from the visit" for wording no transcript line says, and apart the wording filled from a line', () => {
    const g = templateGroups([
      { text: 'Return precautions given.', source_transcripts: [], template: true },
      { text: 'The patient will follow up with me in 3 months.', source_transcripts: ['t12'], template: true },
      { text: 'Their blood pressure is also higher.', source_transcripts: ['t9'] },
    ]);
    expect(g.fixed.map((s) => s.text)).toEqual(['Return precautions given.']);
    expect(g.filled.map((s) => s.text)).toEqual(['The patient will follow up with me in 3 months.']);
  });
});
