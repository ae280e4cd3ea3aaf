import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeWav } from './audio.js';
import { createSpeechEngine } from './index.js';
import { OpenAISpeechEngine } from './openai.js';
import type { SpeechSegment } from './types.js';

/**
 * TEST DOUBLE of a cloud service: a local stand-in for OpenAI's POST /v1/audio/transcriptions
 * (multipart/form-data with `file` and `model`; `response_format` json → {text}, verbose_json →
 * {task, language, duration, text, segments[], words[]} with times in seconds; errors as
 * {error: {message, type}}). It cannot recognise speech: it "hears" one word per 250 ms of audio it
 * receives, so tests can check what was sent and how the reply is mapped.
 */
interface Behaviour {
  failures: number[];
  rejectVerbose: boolean;
  delayMs: number;
}
interface Seen {
  auth?: string;
  model?: string;
  format?: string;
  granularities: string[];
  prompt?: string;
  durationMs: number;
  sampleRate: number;
}

let server: http.Server;
let base: string;
let behaviour: Behaviour;
let seen: Seen[];

function reply(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  // The request handler is async; its rejection would otherwise be unhandled (no-misused-promises).
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return reply(res, 404, { error: { message: 'not found' } });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob) || !form.get('model')) return reply(res, 400, { error: { message: 'file and model are required' } });
    const wav = decodeWav(Buffer.from(await file.arrayBuffer()));
    const durationMs = (wav.channels[0]!.length * 1000) / wav.sampleRate;
    const format = String(form.get('response_format') ?? 'json');
    seen.push({
      auth: req.headers.authorization,
      model: String(form.get('model')),
      format,
      granularities: form.getAll('timestamp_granularities[]').map(String),
      prompt: form.get('prompt') === null ? undefined : String(form.get('prompt')),
      durationMs,
      sampleRate: wav.sampleRate,
    });
    const fail = behaviour.failures.shift();
    if (fail === 0) return req.socket.destroy();
    if (fail) return reply(res, fail, { error: { message: 'try later', type: 'server_error' } }, fail === 429 ? { 'retry-after': '0' } : {});
    if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
    if (format === 'verbose_json' && behaviour.rejectVerbose) {
      return reply(res, 400, { error: { message: "response_format 'verbose_json' is not supported", type: 'invalid_request_error' } });
    }
    const n = Math.max(1, Math.floor(durationMs / 250));
    const words = Array.from({ length: n }, (_, i) => ({ word: `w${i}`, start: i * 0.25, end: i * 0.25 + 0.2 }));
    const text = words.map((w) => w.word).join(' ');
    if (format === 'json') return reply(res, 200, { text });
    reply(res, 200, {
      task: 'transcribe',
      language: 'english',
      duration: durationMs / 1000,
      text,
      segments: [{ id: 0, seek: 0, start: 0, end: durationMs / 1000, text: ` ${text}`, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 }],
      words,
    });
  };
  server = http.createServer((req, res) => void answer(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  behaviour = { failures: [], rejectVerbose: false, delayMs: 0 };
  seen = [];
});

/** Bursts of a tone separated by silence: the chunker should cut at each pause. */
function bursts(lengthsMs: number[], pauseMs = 1000): Buffer {
  const parts: Buffer[] = [Buffer.alloc(16000)];
  for (const ms of lengthsMs) {
    const n = (ms * 16000) / 1000;
    const b = Buffer.alloc(n * 2);
    for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 16000)), i * 2);
    parts.push(b, Buffer.alloc(((pauseMs * 16000) / 1000) * 2));
  }
  return Buffer.concat(parts);
}

const engine = (extra: Partial<ConstructorParameters<typeof OpenAISpeechEngine>[0]> = {}) =>
  new OpenAISpeechEngine({ baseUrl: base, apiKey: 'sk-test', model: 'whisper-1', retryBaseMs: 5, ...extra });

describe('OpenAI-compatible transcription engine', () => {
  it('is chosen by configuration', () => {
    const e = createSpeechEngine({ engine: 'openai', baseUrl: base, model: 'm' });
    expect(e.name).toBe('openai');
    expect(() => createSpeechEngine({ engine: 'openai' })).toThrow(/SPEECH_BASE_URL/);
  });

  it('uploads WAV with model and verbose_json and maps words to absolute times', async () => {
    const segs = await engine().transcribeChunk(bursts([1000], 0).subarray(0, 32000), 5000);
    expect(seen[0]).toMatchObject({ auth: 'Bearer sk-test', model: 'whisper-1', format: 'verbose_json', sampleRate: 16000 });
    expect(seen[0]!.granularities).toEqual(['word', 'segment']);
    expect(segs).toHaveLength(1);
    expect(segs[0]).toMatchObject({ text: 'w0 w1 w2 w3', isFinal: true, startMs: 5000, endMs: 6000, lang: 'en' });
    // Segment confidence is exp(avg_logprob) = exp(-0.2); words carry their segment's.
    expect(segs[0]!.confidence).toBe(0.819);
    expect(segs[0]!.words[1]).toEqual({ word: 'w1', startMs: 5250, endMs: 5450, confidence: 0.819 });
    expect(seen[0]!.prompt).toBeUndefined();
  });

  it("sends the session's context as the prompt", async () => {
    const e = engine();
    await e.transcribe(bursts([1000], 0).subarray(0, 32000), { bias: { terms: ['lisinopril', 'Essential hypertension'], text: 'Follow-up of blood pressure.' } });
    expect(seen[0]!.prompt).toBe('Clinic visit. lisinopril, Essential hypertension. Follow-up of blood pressure.');
  });

  it('streams: each pause-delimited chunk is sent and its segments emitted in order', async () => {
    const got: SpeechSegment[] = [];
    const s = engine().openStream({ onSegment: (g) => got.push(g) });
    const pcm = bursts([1000, 2000, 1500]);
    for (let o = 0; o < pcm.length; o += 3200) s.write(pcm.subarray(o, o + 3200));
    await s.end();
    expect(seen).toHaveLength(3);
    expect(got).toHaveLength(3);
    // Each chunk is its burst plus the pre-roll (250 ms) and the closing pause (700 ms).
    seen.forEach((r, i) => expect(Math.abs(r.durationMs - [1950, 2950, 2450][i]!)).toBeLessThanOrEqual(50));
    expect(got.map((g) => g.words.length)).toEqual([7, 11, 9]);
    expect(got.every((g, i) => i === 0 || g.startMs > got[i - 1]!.endMs)).toBe(true);
    // The first burst starts after 500 ms of silence; the chunk keeps a short pre-roll before it.
    expect(got[0]!.startMs).toBeGreaterThanOrEqual(200);
    expect(got[0]!.startMs).toBeLessThanOrEqual(500);
  });

  it('retries network errors, 429 and 5xx, then succeeds', async () => {
    behaviour.failures = [0, 503, 429, 500];
    const segs = await engine().transcribe(bursts([1000]));
    expect(seen.length).toBe(5);
    expect(segs).toHaveLength(1);
    expect(segs[0]!.text).toMatch(/^w0 w1 w2/);
  });

  it('gives up after the configured retries and reports the status', async () => {
    behaviour.failures = [502, 502, 502];
    await expect(engine({ maxRetries: 2 }).transcribe(bursts([1000]))).rejects.toThrow(/3 attempts.*502/);
  });

  it('does not retry client errors', async () => {
    behaviour.failures = [401];
    await expect(engine().transcribe(bursts([1000]))).rejects.toThrow(/401/);
    expect(seen).toHaveLength(1);
  });

  it('times out a hanging request and retries it', async () => {
    behaviour.delayMs = 2000;
    await expect(engine({ timeoutMs: 200, maxRetries: 1 }).transcribe(bursts([500]))).rejects.toThrow(/timed out/);
    expect(seen).toHaveLength(2);
  });

  it('falls back to json when the server rejects verbose_json, and keeps using it', async () => {
    behaviour.rejectVerbose = true;
    // One request at a time so the second chunk is sent after the fallback was learnt.
    const e = engine({ concurrency: 1 });
    const segs = await e.transcribe(bursts([1000, 1000]));
    expect(seen.map((s) => s.format)).toEqual(['verbose_json', 'json', 'json']);
    expect(segs.map((s) => s.text)).toEqual(['w0 w1 w2 w3 w4 w5 w6', 'w0 w1 w2 w3 w4 w5 w6']);
    // Without timings from the server, word times are spread across the chunk.
    expect(segs[0]!.words).toHaveLength(7);
    expect(segs[0]!.words[0]!.startMs).toBe(segs[0]!.startMs);
  });
});
