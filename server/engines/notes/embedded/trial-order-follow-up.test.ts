/**
 * A natural-voice visit tried in the browser on 3 Dec (Festival voices; the recogniser's words, with "ordering know
 * basic" read as "ordering a basic"): the clinician's "I am ordering a basic metabolic panel today and I will see you for
 * follow-up in three months" was filed under Results (an order taken for a result), left out of the plan (the first-person
 * "I am ordering" was not put in the plan's voice), and its follow-up was said twice; the opener read "for the evaluation
 * of blood pressure your diabetes".
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const VISIT = `[doctor] good morning
[doctor] we are follow-up on your blood pressure your diabetes and your knee today
[patient] my home blood pressure reading so have been high mostly are around one fifty over ninety five
[doctor] i have noted or allergies
[doctor] you're allergic to penicillin and it gave you a rash
[patient] yes penicillin kids knee rash
[doctor] i will increase your lisinopril from twenty milligrams to forty milligrams daily
[doctor] continue metformin five hundred milligrams twice a day
[patient] my right knee hurts when i walk because of the arthritis
[doctor] for the right knee osteoarthritis take acetaminophen five hundred milligrams every six hours as needed for pain
[patient] sorry my allergies are acting up this sprain
[doctor] i am ordering a basic metabolic panel today and i will see you for follow-up in three months
`;
const note = new EmbeddedNotesEngine().generateSync({ transcript: dialogueToTranscript(VISIT), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (title: string) => note.summary.find((s) => s.title === title)?.content ?? '';

describe('an order and a follow-up said in one sentence', () => {
  it('files the order in the plan, in the plan voice, and not under Results', () => {
    expect(section('RESULTS')).not.toMatch(/metabolic panel|follow-up/i);
    expect(section('ASSESSMENT AND PLAN')).toContain('• Additional Testing: We are ordering a basic metabolic panel today.');
    expect(note.structured_data.orders.service_orders.values.map((o) => o.code?.code)).toContain('51990-0');
  });

  it('says the follow-up once, as the instructions line', () => {
    const plan = section('ASSESSMENT AND PLAN');
    expect(plan).toContain('Instructions: The patient will follow up with me in 3 months.');
    expect(plan.match(/3 months/g)).toHaveLength(1);
  });

  it('names the reasons said as a list without the possessive between them', () => {
    expect(section('HISTORY OF PRESENT ILLNESS')).toMatch(/^The patient presents to the clinic today for the evaluation of blood pressure and diabetes\./);
  });
});
