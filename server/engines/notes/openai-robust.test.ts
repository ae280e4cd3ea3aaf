/**
 * Robust calls of the language-model notes engine (issue 32 item 3), against the STAND-IN chat server of
 * server/test/openai-chat-stand-in.ts (a real HTTP server in this process standing in for an OpenAI-compatible
 * server, since none can be reached here): 429 and 5xx retried, malformed or cut-off JSON repaired or refused
 * whole, an unreachable or silent model named in the error, the concurrency bound, and the fallback only when
 * configured and marked on the note.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '@/server/codesets/index';
import { checkNoteFaithfulness } from './faithfulness/index';
import { createNotesEngine, type NotesEngineConfig } from './index';
import type { NoteRequest } from './types';
import { startChatStandIn, type ChatStandIn, type StandInReply } from '@/server/test/openai-chat-stand-in';
import { VISIT_TURNS, inventingModelNote } from '@/server/test/inventing-model-note';

let standIn: ChatStandIn;
const good = (lines: Array<{ id: string; text: string }>): StandInReply => ({ content: JSON.stringify(inventingModelNote(lines)) });
beforeAll(async () => {
  standIn = await startChatStandIn((r) => good(r.lines));
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.maxInFlight = 0;
});

const req: NoteRequest = {
  transcript: VISIT_TURNS.map((t, i) => ({ transcriptId: `t${i + 1}`, speaker: t.role, text: t.text, startMs: i * 3000, endMs: i * 3000 + 2500 })),
  sections: [{ loinc: '10164-2' }, { loinc: '48765-2' }, { loinc: '51847-2' }],
  preferences: { verbosity: 'BALANCED', sectionFormat: {} },
};
const engine = (over: Partial<NotesEngineConfig> = {}) =>
  createNotesEngine({ engine: 'openai', baseUrl: standIn.baseUrl, model: 'stand-in-model', codes: builtinCodeIndex(), retryBaseMs: 1, ...over });
/** Answers `first` to the first request, then the good note. */
const firstThen = (first: StandInReply) => (standIn.script = (r, n) => (n === 0 ? first : good(r.lines)));
const clean = (n: Awaited<ReturnType<ReturnType<typeof engine>['generate']>>) => checkNoteFaithfulness(n, req.transcript).unsupported.length;

describe('retries', () => {
  it('takes a 429 (after its Retry-After), then the success, and guards that note', async () => {
    firstThen({ status: 429, headers: { 'retry-after': '0' } });
    const note = await engine().generate(req);
    expect(standIn.requests).toHaveLength(2);
    expect(clean(note)).toBe(0);
    expect(note.left_out?.some((l) => l.kind === 'allergy')).toBe(true);
  });

  it('takes a 503, then the success', async () => {
    firstThen({ status: 503 });
    expect(clean(await engine().generate(req))).toBe(0);
    expect(standIn.requests).toHaveLength(2);
  });

  it('does not retry a 400, and says which status it got', async () => {
    standIn.script = () => ({ status: 400 });
    await expect(engine().generate(req)).rejects.toThrow(/notes model \(NOTES_BASE_URL, model stand-in-model\) answered HTTP 400 after 1 attempt$/);
    expect(standIn.requests).toHaveLength(1);
  });
});

describe('malformed or partial JSON', () => {
  it('refuses malformed JSON whole and asks again', async () => {
    firstThen({ content: '{"sections": [{"loinc_code": "10164-2", "sentences": [{"text": "Allergic to sulfa.", "evidence": []}' });
    const note = await engine().generate(req);
    expect(standIn.requests).toHaveLength(2);
    expect(clean(note)).toBe(0);
  });

  it('refuses an answer cut off at the token limit, even when what came parses', async () => {
    const whole = inventingModelNote(standIn.requests[0]?.lines ?? []);
    firstThen({ content: JSON.stringify({ ...whole, medication_orders: [] }), finishReason: 'length' });
    await engine().generate(req);
    expect(standIn.requests).toHaveLength(2);
  });

  it('repairs a fenced answer with trailing commas, in one request', async () => {
    standIn.script = (r) => ({ content: `Here is the note:\n\`\`\`json\n${JSON.stringify(inventingModelNote(r.lines), null, 1).replace(/\n(\s*)\]/g, ',\n$1]')}\n\`\`\`` });
    const note = await engine().generate(req);
    expect(standIn.requests).toHaveLength(1);
    expect(note.summary.find((s) => s.loinc_code === '48765-2')!.content).toMatch(/penicillin/);
    expect(clean(note)).toBe(0);
  });

  it('never applies JSON of the wrong shape: the note fails, naming the path, after every attempt', async () => {
    standIn.script = () => ({ content: '{"sections": "not an array", "diagnoses": [], "medication_orders": []}' });
    await expect(engine({ maxRetries: 1 }).generate(req)).rejects.toThrow(/answered JSON of the wrong shape \(sections: invalid_type\) after 2 attempts/);
    expect(standIn.requests).toHaveLength(2);
  });
});

describe('an unreachable or silent model', () => {
  it('names the setting and the network error when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const e = createNotesEngine({ engine: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1, retryBaseMs: 1, codes: builtinCodeIndex() });
    await expect(e.generate(req)).rejects.toThrow('the notes model (NOTES_BASE_URL, model m) could not be reached (ECONNREFUSED) after 2 attempts');
  });

  it('gives up an attempt after NOTES_TIMEOUT_MS', async () => {
    standIn.script = () => ({ hang: true });
    await expect(engine({ timeoutMs: '200', maxRetries: '0' }).generate(req)).rejects.toThrow(/did not answer within 200 ms \(NOTES_TIMEOUT_MS\) after 1 attempt/);
  });
});

describe('fallback', () => {
  it('writes the note with the embedded engine only when NOTES_FALLBACK=embedded, and marks it', async () => {
    standIn.script = () => ({ status: 500 });
    await expect(engine({ maxRetries: 0 }).generate(req)).rejects.toThrow(/answered HTTP 500/);
    const note = await engine({ maxRetries: 0, fallback: 'embedded' }).generate(req);
    expect(note.fallback).toEqual({ engine: 'embedded', from: 'openai', reason: 'the notes model (NOTES_BASE_URL, model stand-in-model) answered HTTP 500 after 1 attempt' });
    expect(note.summary.map((s) => s.loinc_code)).toEqual(['10164-2', '48765-2', '51847-2']);
    expect(note.summary.find((s) => s.loinc_code === '48765-2')!.content).toMatch(/penicillin/i);
  });

  it('rejects settings it does not know, naming the variable', () => {
    expect(() => engine({ fallback: 'cloud' })).toThrow('NOTES_FALLBACK=cloud is not supported (none | embedded)');
    expect(() => engine({ concurrency: '0' })).toThrow(/NOTES_CONCURRENCY must be a whole number of at least 1/);
    expect(() => engine({ timeoutMs: 'soon' })).toThrow(/NOTES_TIMEOUT_MS/);
    expect(() => createNotesEngine({ engine: 'openai' })).toThrow(/NOTES_BASE_URL and NOTES_MODEL/);
  });
});

describe('NOTES_CONCURRENCY', () => {
  it('never has more requests in flight than the setting, however many notes are asked for at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Holds every answer until two requests are open at once: with the bound at 2 the third waits its turn.
    standIn.script = async (r) => {
      if (standIn.inFlight >= 2) release();
      await gate;
      return good(r.lines);
    };
    const e = engine({ concurrency: 2 });
    const notes = await Promise.all([e.generate(req), e.generate(req), e.generate(req)]);
    expect(standIn.requests).toHaveLength(3);
    expect(standIn.maxInFlight).toBe(2);
    expect(notes.map(clean)).toEqual([0, 0, 0]);
  });
});
