import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';
import { elevatedPressure, vitalsIn } from './vitals';

const exam = (dialogue: string) =>
  new EmbeddedNotesEngine()
    .generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } })
    .summary.find((s) => s.loinc_code === '29545-1')!.content;

describe('vital signs read out in the examination', () => {
  it('lists each value under its label instead of the spoken clause', () => {
    const content = exam(`[doctor] what brings you in?
[patient] my knee hurts.
[doctor] how long has it hurt?
[patient] about two weeks, since i fell on the stairs.
[doctor] let me examine you. i looked at your vitals, your blood pressure is one sixty nine over seventy four, your heart rate was eighty eight, your oxygenation was ninety eight percent.
[doctor] your lungs are clear. there is tenderness over the medial joint line of the right knee.
[doctor] so for your right knee pain, i am going to order an x-ray of the right knee.
[patient] okay.`);
    expect(content).toMatch(/^• Blood pressure: 169\/74 mmHg\.$/m);
    expect(content).toMatch(/^• Heart rate: 88 bpm\.$/m);
    expect(content).toMatch(/^• Oxygen saturation: 98%\.$/m);
    expect(content).not.toMatch(/oxygenation was/);
    expect(content).toMatch(/Lungs are clear to auscultation/);
  });

  it('takes no reading from elsewhere, no implausible value, and no pulse of an exam finding', () => {
    expect(vitalsIn('your blood pressure at home has been 150/90')).toEqual([]);
    expect(vitalsIn('your heart rate is 8')).toEqual([]);
    expect(vitalsIn('strong dorsalis pedis pulses 2 plus')).toEqual([]);
    expect(vitalsIn('his breathing rate is pretty normal at 19')).toEqual([{ label: 'Respiratory rate', value: '19' }]);
    expect(vitalsIn("your oxygen is you're satting kind of fine at 99 percent on room air")).toEqual([{ label: 'Oxygen saturation', value: '99% on room air' }]);
    expect(vitalsIn('pulse ox 97 percent')).toEqual([{ label: 'Oxygen saturation', value: '97%' }]);
    expect(vitalsIn('respiratory rate 18 and temperature 98.6')).toEqual([
      { label: 'Respiratory rate', value: '18' },
      { label: 'Temperature', value: '98.6' },
    ]);
  });

  it('writes a pressure said to be high as elevated, with its reading when one was given', () => {
    expect(elevatedPressure("your blood pressure's a little elevated today, 156/94")?.value).toBe('Elevated at 156/94 mmHg');
    expect(elevatedPressure("your blood pressure's a little high today")?.value).toBe('Elevated');
    expect(elevatedPressure('your blood pressure is not high')).toBeUndefined();
    expect(elevatedPressure('your blood pressure was high in the emergency room')).toBeUndefined();
  });
});
