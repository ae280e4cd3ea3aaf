/**
 * Realistic visits tried in the browser on 3 Dec (clean typed dialogues, the trial's `clean` and `clean1`): a return
 * precaution missing from the note or filed as one problem's reasoning, and what else those notes got wrong.
 */
import { describe, expect, it } from 'vitest';
import { buildVisitSummary } from '@/server/domain/visit-summary/build-visit-summary';
import { checkNoteFaithfulness } from '../faithfulness/check-note-faithfulness';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const generate = (visit: string) => {
  const transcript = dialogueToTranscript(visit);
  const note = new EmbeddedNotesEngine().generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const section = (title: string) => note.summary.find((s) => s.title === title)?.content ?? '';
  return { transcript, note, section };
};

const PRECAUTION_VISIT = `[doctor] Your hypertension is not controlled. High blood pressure can lead to a stroke if it is not treated.
[doctor] I am going to increase your lisinopril from twenty milligrams to forty milligrams once daily.
[patient] Okay. My right knee has also been hurting, especially on the stairs.
[doctor] This is osteoarthritis of the right knee.
[doctor] You can take acetaminophen five hundred milligrams every six hours as needed for pain.
[doctor] Please follow up with me in three months. If you have any chest pain, go to the emergency room right away.
[patient] Okay, thank you doctor.`;

describe('a return precaution', () => {
  const { transcript, note, section } = generate(PRECAUTION_VISIT);
  const plan = section('ASSESSMENT AND PLAN');

  it('is written with the follow-up as the instructions, not as a problem\'s reasoning', () => {
    expect(plan).toContain('Instructions: The patient will follow up with me in 3 months. If the patient has any chest pain, the patient should go to the emergency room right away.');
    expect(plan.match(/chest pain/g)).toHaveLength(1);
    expect(note.structured_data.diagnoses.values.map((d) => d.diagnosis_note).join(' ')).not.toMatch(/chest pain/);
  });

  it('is what the after-visit summary says to get help for', () => {
    const avs = buildVisitSummary('s1', note.summary, note.structured_data, null);
    expect(avs.get_help).toEqual(['If you have any chest pain, you will go to the emergency room right away.']);
    expect(avs.follow_up.join(' ')).not.toMatch(/chest pain/);
  });

  it('is supported by the warning sign the clinician said', () => {
    const report = checkNoteFaithfulness(note, transcript);
    const said = report.sentences.find((s) => /chest pain/.test(s.text));
    expect(said?.noEvidence).toBe(false);
    expect(report.unsupported.filter((u) => /chest pain/.test(u.sentence.text))).toEqual([]);
  });
});
