import { describe, expect, it } from 'vitest';
import { EmbeddedNotesEngine } from './index';
import { dialogueToTranscript } from './dialogue';

describe('spoken lead-ins to a problem', () => {
  it('are left out of the plan, since the heading names the problem', () => {
    const ap = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] hi joseph, how are your sugars?
[patient] they have been high, i ate a lot of pizza.
[doctor] let me examine you. your lungs are clear.
[doctor] my impression of him at this time, from a diabetes standpoint, we will increase the metformin to one thousand milligrams twice a day.
[doctor] then, from a depression standpoint, we will go ahead and start him on zoloft twenty five milligrams once a day.
[patient] okay.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '51847-2')!.content;
    expect(ap).toMatch(/We will increase the metformin to 1000 mg twice daily\./);
    expect(ap).toMatch(/We will start him on zoloft 25 mg daily\./);
    expect(ap).not.toMatch(/impression of him|standpoint|go ahead and/i);
  });
});

describe('closing small talk', () => {
  it('is not filed under a problem', () => {
    const ap = new EmbeddedNotesEngine()
      .generateSync({
        transcript: dialogueToTranscript(`[doctor] hi gabriel, what brings you in?
[patient] my lower back has been hurting for four days since i lifted something.
[doctor] let me examine your back. there is tenderness over the lumbar spine.
[doctor] for your back pain, i think this is a muscle strain and we will start naprosyn five hundred milligrams twice a day.
[doctor] i think that is it, is there anything else we forgot about?
[doctor] sounds great, alright, thanks gabriel, good seeing you again.
[patient] thanks.`),
        sections: [],
        preferences: { verbosity: 'BALANCED', sectionFormat: {} },
      })
      .summary.find((s) => s.loinc_code === '51847-2')!.content;
    expect(ap).toMatch(/naprosyn 500 mg twice daily/i);
    expect(ap).not.toMatch(/anything else|good seeing/i);
  });
});

describe('"gonna have you" in unpunctuated speech', () => {
  // Festival-voiced D2N083 through /ws/ambient (28 Nov): the recogniser's "we're also gonna have you apply ice … and i
  // want you to take ibuprofen" was cut before "have you" as a new question, so the ibuprofen it orders was no order at all.
  it('orders, it asks nothing: the drug it names is an order', () => {
    const r = new EmbeddedNotesEngine().generateSync({
      transcript: dialogueToTranscript(`[doctor] what brings you in today
[patient] my right elbow has been hurting for two weeks
[doctor] so for the problem with elbow pain i do believe that this is consistent with medial epicondylitis
[doctor] now i want you to rest and we're also gonna have you apply ice to the elbow for twenty minutes three times a day and i want you to take ibuprofen
[doctor] six hundred milligrams every six hours with food and i want you to take that for a full week`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    const orders = [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];
    expect(orders.map((o) => [o.drug_name, o.status])).toEqual([['ibuprofen', 'NEW']]);
  });
  it('still starts a new sentence at a real question after a statement', () => {
    const r = new EmbeddedNotesEngine().generateSync({
      transcript: dialogueToTranscript(`[doctor] what brings you in today
[patient] my right elbow has been hurting for two weeks
[doctor] you have some tenderness over the elbow have you taken any ibuprofen for it
[patient] no i have not`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    const orders = [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values];
    expect(orders).toEqual([]);
  });
});
