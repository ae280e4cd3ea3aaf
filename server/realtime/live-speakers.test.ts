import { describe, expect, it } from 'vitest';
import { NATURAL_VOICES, synthesizeDialogue } from '../engines/speech/synth';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { LiveSpeakers, type SpeakerLabel } from './live-speakers';

// Neutral words on purpose for the later turns, so the voices and not only the text cues decide them.
const TURNS = [
  { role: 'CLINICIAN' as const, text: 'Good morning. What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a fever for two weeks, and my chest hurts when I cough.' },
  { role: 'CLINICIAN' as const, text: 'How long have you had the fever, and do you have any chills?' },
  { role: 'PATIENT' as const, text: 'It started on Monday. My husband has the same cough.' },
  { role: 'CLINICIAN' as const, text: 'I will order a chest x-ray and prescribe amoxicillin twice a day.' },
];

describe('LiveSpeakers', () => {
  it('labels each live line as it arrives and ends with the visit\'s speakers', async () => {
    const visit = synthesizeDialogue(TURNS, 600, NATURAL_VOICES);
    const reports: SpeakerLabel[][] = [];
    const live = new LiveSpeakers(
      async (startMs, endMs) => visit.pcm.subarray(Math.round(startMs) * BYTES_PER_MS, Math.round(endMs) * BYTES_PER_MS),
      (labels) => void reports.push(labels),
      (err) => {
        throw err;
      },
    );
    const ids = visit.turns.map((_, i) => `line-${i}`);
    // The first line alone: named at once, by what it says.
    live.add({ id: ids[0]!, text: visit.turns[0]!.text, startMs: visit.turns[0]!.startMs, endMs: visit.turns[0]!.endMs });
    await live.close();
    expect(reports).toEqual([[{ id: 'line-0', speaker: 'CLINICIAN' }]]);

    const rest = new LiveSpeakers(
      async (startMs, endMs) => visit.pcm.subarray(Math.round(startMs) * BYTES_PER_MS, Math.round(endMs) * BYTES_PER_MS),
      (labels) => void reports.push(labels),
      (err) => {
        throw err;
      },
    );
    visit.turns.forEach((t, i) => rest.add({ id: ids[i]!, text: t.text, startMs: t.startMs, endMs: t.endMs }));
    await rest.close();
    const latest = new Map<string, string>();
    for (const batch of reports.slice(1)) for (const l of batch) latest.set(l.id, l.speaker);
    expect(ids.map((id) => latest.get(id))).toEqual(visit.turns.map((t) => t.role));
  }, 120_000);
});
