import { describe, expect, it } from 'vitest';
import { findFrequencies } from './find-frequencies';

describe('findFrequencies', () => {
  it('reads the spoken and written forms of a frequency as one code', () => {
    for (const said of ['twice a day', 'bid', 'twice daily', '2 times a day']) expect(findFrequencies(said).map((f) => f.code)).toEqual(['TWO_A_DAY']);
    for (const said of ['daily', 'once a day', 'every day']) expect(findFrequencies(said).map((f) => f.code)).toEqual(['ONE_A_DAY']);
  });

  it('reads several in order without double-reading an overlap', () => {
    expect(findFrequencies('acetaminophen 500 mg every 6 hours as needed').map((f) => f.code)).toEqual(['EVERY_6_HOURS', 'AS_NEEDED']);
    expect(findFrequencies('metformin twice a day').map((f) => f.code)).toEqual(['TWO_A_DAY']);
  });
});
