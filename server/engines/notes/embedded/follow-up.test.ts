import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';
import { ISSUE29_VISIT } from './issue29-visit';

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

  it('is filed once, on the Instructions line, not again under a problem (the issue-27 visit)', () => {
    const content = new EmbeddedNotesEngine()
      .generateSync({ transcript: dialogueToTranscript(ISSUE29_VISIT), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } })
      .summary.find((s) => s.loinc_code === '51847-2')!.content;
    expect(content).toMatch(/^Instructions: The patient will follow up with me in 4 weeks\.$/m);
    expect(content.match(/follow up/gi)).toHaveLength(1);
    expect(content).not.toMatch(/Patient Education and Counseling: Follow up/);
  });

  it('keeps a follow-up said with another interval, or with more in it, where it was said', () => {
    const content = plan('follow up with the physical therapist in two weeks and ice the ankle for twenty minutes after every session. i will see you back in six weeks.');
    expect(content).toMatch(/^Instructions: The patient will follow up with me in 6 weeks\.$/m);
    expect(content).toMatch(/physical therapist in 2 weeks/);
  });
});
