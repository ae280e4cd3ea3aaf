/**
 * An allergy said as the answer to the clinician's question ("Any allergies to medications?" "Yes, penicillin
 * gives me a rash.") names no allergy itself. Seen in a recorded visit: the Allergies section had it, the coded
 * allergies did not, and the Medications section listed penicillin as a drug the patient takes.
 */
import { describe, expect, it } from 'vitest';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const engine = new EmbeddedNotesEngine();
const generate = (dialogue: string) =>
  engine.generateSync({ transcript: dialogueToTranscript(dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
const section = (r: ReturnType<typeof generate>, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';

describe('an allergy given as the answer to an allergy question', () => {
  const visit = generate(
    [
      '[doctor] Hello, what brings you in today?',
      '[patient] My right knee has been hurting for about three months, worse when I climb stairs.',
      '[doctor] Do you have any allergies to medications?',
      '[patient] Yes, penicillin gives me a rash.',
      '[patient] I take metformin five hundred milligrams twice a day for my diabetes.',
      '[doctor] On exam there is swelling and crepitus of the right knee.',
      '[doctor] I think this is osteoarthritis of the right knee. You can take acetaminophen five hundred milligrams as needed for pain.',
    ].join('\n'),
  );

  it('is coded: the penicillin class, the rash, reported by the patient, with the question and answer as evidence', () => {
    expect(visit.structured_data.allergies.values).toEqual([
      expect.objectContaining({ substance: 'penicillin', substance_code: expect.objectContaining({ code: 'J01C', type: 'DRUG_CLASS' }), reaction: 'rash', verification: 'REPORTED', source_transcripts: ['t3', 't4'] }),
    ]);
    expect(section(visit, '48765-2')).toBe('Penicillin causes rash.');
  });

  it('is not a medication the patient takes', () => {
    expect(section(visit, '10160-0')).not.toMatch(/penicillin/i);
    expect(section(visit, '10160-0')).toMatch(/Metformin 500 mg twice daily/);
    const drugs = [...visit.structured_data.orders.medication_orders.values, ...visit.structured_data.orders.medication_orders.partial_values].map((o) => o.drug_name);
    expect(drugs).not.toContain('penicillin');
  });

  it('is no allergy when the answer is no', () => {
    const r = generate(['[doctor] Do you have any allergies to medications?', '[patient] No, I just take my lisinopril.'].join('\n'));
    expect(r.structured_data.allergies.values).toEqual([]);
  });
});
