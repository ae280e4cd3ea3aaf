import { describe, expect, it } from 'vitest';
import { checkDosePlausibility } from '../../../domain/note-signoff/check-dose-plausibility';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const PLAN = "[doctor] Let's talk about my assessment and plan. For your right knee, I think this is osteoarthritis.\n";
const orderOf = (said: string, drug: string) =>
  new EmbeddedNotesEngine()
    .generateSync({ transcript: dialogueToTranscript(`${PLAN}[doctor] ${said}`), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } })
    .structured_data.orders.medication_orders.values.find((o) => o.drug_name === drug)!;

describe('the most a day the clinician allows is kept with the order', () => {
  it('keeps "no more than 8 tablets a day" in the instructions, so the review judges the order by it', () => {
    const capped = orderOf('Take acetaminophen 500 milligrams, two tablets every 4 hours as needed for pain, no more than 8 tablets a day.', 'acetaminophen');
    expect(capped.instructions).toBe('as needed for pain; no more than 8 tablets a day');
    expect(checkDosePlausibility(capped)).toBeNull();
    // The same order without the cap allows 6000 mg a day, over the labelled 4000.
    const uncapped = orderOf('Take acetaminophen 500 milligrams, two tablets every 4 hours as needed for pain.', 'acetaminophen');
    expect(checkDosePlausibility(uncapped)).toMatchObject({ reason: 'HIGH', total: 'up to 6000 mg a day' });
  });

  it('reads a cap in doses said "in a day"', () => {
    expect(orderOf('You can take ibuprofen 400 milligrams every 8 hours as needed, but no more than 3 doses in a day.', 'ibuprofen').instructions).toBe('no more than 3 doses a day');
  });
});

describe('a cap beside the count per dose', () => {
  it('still writes the count with the dose in the medication list', () => {
    const note = new EmbeddedNotesEngine().generateSync({
      transcript: dialogueToTranscript(`${PLAN}[doctor] Take acetaminophen 500 milligrams, two tablets every 6 hours, no more than 8 tablets a day.`),
      sections: [],
      preferences: { verbosity: 'BALANCED', sectionFormat: {} },
    });
    expect(note.structured_data.orders.medication_orders.values[0]!.instructions).toBe('2 tablets; no more than 8 tablets a day');
    expect(note.summary.find((s) => s.loinc_code === '10160-0')?.content).toMatch(/Acetaminophen 500 mg 2 tablets/);
  });
});
