import { describe, expect, it } from 'vitest';
import { speechFlags } from './speech-flags';

describe('speechFlags', () => {
  it('flags an [unclear] span printed into the note (issue 27: the HPI with "[unclear]")', () => {
    expect(speechFlags('The patient reports [unclear] blood pressure at home.')).toEqual(['unclear']);
  });

  it('flags a greeting or small talk in the note (issue 27: the greeting under counselling)', () => {
    expect(speechFlags('Hi, good morning, how are you doing today?')).toContain('greeting');
    expect(speechFlags('I am doctor Patel, we are following up on their high blood pressure today.')).toEqual(['greeting']);
    expect(speechFlags('I am [unclear] we are follow-up on their high blood pressure today')).toEqual(['unclear']);
  });

  it('flags speech addressed to the patient or someone in the room', () => {
    expect(speechFlags('He reports how you doing is it gotten any better.')).toEqual(['addressed-speech']);
    expect(speechFlags('Show me the x-ray.')).toEqual(['addressed-speech']);
  });

  it('leaves a written sentence, in the clinician\'s voice, unflagged', () => {
    expect(speechFlags('I discussed the diagnosis and treatment options with the patient.')).toEqual([]);
    expect(speechFlags('The patient will follow up with me in 4 weeks.')).toEqual([]);
    expect(speechFlags('Aches and pains, nothing that Tylenol cannot take care of.')).toEqual([]);
  });
});
