/**
 * A 62 s asthma and cholesterol follow-up recorded in Chromium in Festival voices (28 Nov browser trial), as the
 * recogniser gave it. Its note lost the oxygen saturation the clinician read out ("your oxygen level was ninety seven
 * percent": no exam cue, no "today"), coded the albuterol's as-needed reason (shortness of breath) as a diagnosis, and
 * missed the cholesterol the visit was framed on and managed with atorvastatin, filing the statin and the lipid panel
 * under the asthma.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { recordedTranscript, type RecordedLine } from './recorded-transcript';
import RECORDED from './recorded-asthma-lipids-62s.json';

const generate = (transcript: Parameters<EmbeddedNotesEngine['generateSync']>[0]['transcript']) =>
  new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (r: ReturnType<typeof generate>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';
const note = (dialogue: string) => generate(dialogueToTranscript(dialogue));

describe('the recorded asthma and cholesterol follow-up', () => {
  const r = generate(recordedTranscript(RECORDED as RecordedLine[]));

  it('states the oxygen saturation the clinician read out under the examination', () => {
    expect(section(r, '29545-1')).toMatch(/Oxygen saturation: 97%\./);
  });
});

describe('a vital sign read out to the patient is measured in the room', () => {
  it.each([
    ['[doctor] your oxygen level was ninety seven percent', '97%'],
    ['[doctor] your oxygen level is ninety seven percent', '97%'],
    ['[doctor] your oxygen is 97 %', '97%'],
    ['[doctor] sats 95', '95%'],
  ])('%s', (dialogue, value) => {
    expect(section(note(dialogue), '29545-1')).toContain(`Oxygen saturation: ${value}.`);
  });

  it('a threshold to call about, or oxygen given in litres, is no reading', () => {
    expect(section(note('[doctor] if your temperature is over 101 today call me'), '29545-1')).not.toMatch(/Temperature/);
    expect(section(note('[doctor] we will keep you on oxygen 2 liters'), '29545-1')).not.toMatch(/Oxygen saturation/);
  });
});
