/**
 * Issue 27: a note worth signing. Each failure the issue names is pinned as its own case, on the issue's
 * visit written out as text (bench/faithfulness/issue27-visit.ts) or on the recognised-speech shape that
 * produced it.
 */
import { describe, expect, it } from 'vitest';
import { ISSUE27_VISIT } from '@/bench/faithfulness/issue27-visit';
import { checkNoteFaithfulness } from '../faithfulness/index';
import type { NoteRequest, NoteResult, TranscriptLine } from '../types';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine, noteToText } from './index';

const engine = new EmbeddedNotesEngine();
function generate(transcript: TranscriptLine[], extra: Partial<NoteRequest> = {}): NoteResult {
  return engine.generateSync({ transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} }, ...extra });
}
const section = (r: NoteResult, loinc: string) => r.summary.find((s) => s.loinc_code === loinc)?.content ?? '';

describe('issue 27: the agreement line', () => {
  it('is not written when the patient only said "okay"', () => {
    const r = generate(dialogueToTranscript(ISSUE27_VISIT));
    expect(noteToText(r)).not.toMatch(/understands and agrees|Patient Agreements/);
  });

  it('is written from the span when the patient agreed in words, and is then not template text', () => {
    const r = generate(dialogueToTranscript(ISSUE27_VISIT.replace('[patient] Okay.', '[patient] That sounds good, I agree.')));
    const line = r.summary.flatMap((s) => s.sentences ?? []).find((s) => /understands and agrees/.test(s.text));
    expect(line?.source_transcripts).toEqual(['t11']);
    expect(line?.template).toBeUndefined();
  });
});

describe('issue 27: template text', () => {
  it('marks the fixed wording (one-liner, follow-up line) as template and nothing the visit said', () => {
    const r = generate(dialogueToTranscript(ISSUE27_VISIT));
    const sentences = r.summary.flatMap((s) => s.sentences ?? []);
    const marked = sentences.filter((s) => s.template).map((s) => s.text);
    expect(marked).toContain('The patient will follow up with me in 4 weeks.');
    expect(marked.some((t) => /presents to the clinic today/.test(t))).toBe(true);
    expect(sentences.filter((s) => !s.template).every((s) => s.source_transcripts.length > 0)).toBe(true);
  });
});
