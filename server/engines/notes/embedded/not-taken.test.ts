/**
 * What a medication list and the coded orders must never hold: a challenge set written for the categories (another
 * person's drug, past use, a question answered no, a drug decided against, a stop), not taken from ACI-BENCH.
 */
import { describe, expect, it } from 'vitest';
import type { NoteResult } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';
import { declinedDrugs, notTakenNow } from './not-taken';

const engine = new EmbeddedNotesEngine();
const OPEN = "[doctor] Hi, what brings you in today?\n[patient] My knee has been hurting for a month.\n[doctor] Okay, tell me more.\n[patient] It hurts on the stairs.\n";
const PLAN = "[doctor] Let's talk about my assessment and plan.\n[doctor] For your right knee, I think this is osteoarthritis. We will get an x-ray of the right knee.\n";
function visit(before: string, plan = ''): { list: string; orders: string[] } {
  const r: NoteResult = engine.generateSync({ transcript: dialogueToTranscript(`${OPEN}${before}\n${PLAN}${plan}`), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
  const orders = [...r.structured_data.orders.medication_orders.values, ...r.structured_data.orders.medication_orders.partial_values].map((o) => `${o.drug_name} ${o.status}`);
  return { list: r.summary.find((s) => s.loinc_code === '10160-0')?.content ?? '', orders };
}

describe('drugs the patient does not take now', () => {
  it('lists neither another person\'s drug nor one the patient took once', () => {
    // Each was listed as the patient's ("Warfarin.", "Lisinopril.", "Prednisone.", "Metformin.") before.
    for (const said of ['[patient] My husband takes warfarin.', '[patient] I used to take lisinopril but I stopped it last year.', '[patient] I was on prednisone last year for my asthma.', '[doctor] Are you still taking the metformin?\n[patient] No, I ran out a month ago.']) {
      const v = visit(said);
      expect(v.list, said).toBe('');
      expect(v.orders, said).toEqual([]);
    }
  });

  it('still lists what the patient takes, a relative named beside it or not', () => {
    expect(visit('[patient] I take metformin five hundred milligrams twice a day.').list).toBe('Metformin 500 mg twice daily.');
    expect(visit('[patient] My wife reminds me, I take lisinopril ten milligrams daily.').list).toMatch(/^Lisinopril 10 mg/);
    expect(visit('[patient] I was on lisinopril and I still take it every morning.').list).toMatch(/^Lisinopril/);
    // A relative who is not the one taking it, a prescription run out, a stop with no time: still the patient's drug.
    expect(visit('[patient] My daughter picks up my metformin at the pharmacy.').list).toMatch(/^Metformin/);
    expect(visit('[patient] I ran out of my lisinopril last week.').list).toMatch(/^Lisinopril/);
    expect(visit('[patient] I stopped eating sugar and I take metformin.').list).toMatch(/^Metformin/);
    expect(visit('[doctor] Are you taking lisinopril or losartan?\n[patient] No, just the lisinopril.').list).toMatch(/^Lisinopril/);
  });

  it('orders no drug the clinician decides against, and says a stopped drug is stopped', () => {
    expect(visit('', '[doctor] We talked about starting duloxetine, but we decided against it for now.\n').orders).toEqual([]);
    expect(visit('', "[doctor] Let's hold off on the gabapentin.\n").orders).toEqual([]);
    const stopped = visit('', '[doctor] Please stop the aspirin.\n');
    expect(stopped.orders).toEqual(['aspirin DISCONTINUED']);
    expect(stopped.list).toBe('Aspirin: stopped at this visit.');
  });

  it('reads the phrases themselves', () => {
    expect(declinedDrugs("I don't want to start you on gabapentin, so we will try duloxetine.").map((d) => d.ingredient)).toEqual(['gabapentin']);
    expect(declinedDrugs('We will start duloxetine.')).toEqual([]);
    expect(notTakenNow('My mom was on metformin for years.')).toBe(true);
    expect(notTakenNow('I take metformin twice a day.')).toBe(false);
  });
});
