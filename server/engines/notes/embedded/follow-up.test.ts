import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';

const plan = (closing: string) =>
  new EmbeddedNotesEngine()
    .generateSync({
      transcript: dialogueToTranscript(`[doctor] what brings you in today?
[patient] my right ankle has been hurting for a week since i twisted it.
[doctor] let me examine your ankle. there is swelling and tenderness over the lateral ankle.
[doctor] so for your right ankle sprain, i am going to put you in an air cast and we will order an x-ray of the right ankle.
[doctor] ${closing}
[patient] okay, sounds good.`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    })
    .summary.find((s) => s.loinc_code === '51847-2')!.content;

describe('follow-up interval', () => {
  it.each([
    ['i want to see you back here in three months or sooner if it gets worse.', '3 months'],
    ['i want to see you back here in in seven days.', '7 days'],
    ["we're going to check you in two weeks to see how it heals.", '2 weeks'],
    ["three weeks, i'd like you to return and bring your log.", '3 weeks'],
    ['i want to see you again next week.', '1 week'],
  ])('reads "%s" as a follow-up in %s', (closing, interval) => {
    expect(plan(closing)).toMatch(new RegExp(`^Instructions: The patient will follow up with me in ${interval}\\.$`, 'm'));
  });

  it('writes no follow-up line when no interval was said', () => {
    expect(plan('call me if anything changes.')).not.toMatch(/Instructions:/);
  });
});
