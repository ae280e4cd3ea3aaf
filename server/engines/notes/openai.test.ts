/**
 * The HTTP server below is a TEST DOUBLE of a cloud service: it stands in for an OpenAI-compatible
 * chat-completions API (POST {base}/chat/completions with Bearer auth, `response_format` json_schema,
 * answering `{id, object: "chat.completion", choices: [{message: {role, content}, finish_reason}]}`),
 * so the engine's request shape, validation, coding and fallback are tested without the network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '@/server/codesets/index';
import { createNotesEngine } from './index';
import { OpenAINotesEngine } from './openai';
import type { NoteRequest } from './types';

let server: http.Server;
let baseUrl = '';
let mode: 'ok' | 'bad-json' | 'error' = 'ok';
const seen: Array<{ auth?: string; body: any }> = [];

const LLM_NOTE = {
  sections: [
    { loinc_code: '10154-3', content: 'Diabetes follow-up.', source_transcripts: ['t1', 'nope'] },
    { loinc_code: '51847-2', content: 'Type 2 diabetes. Continue metformin 500 mg twice a day with meals.', source_transcripts: ['t3'] },
  ],
  diagnoses: [
    { description: 'Type 2 diabetes mellitus', icd10_code: 'E11.9', diagnosis_note: 'Stable on metformin.', laterality: null },
    { description: 'right knee pain', icd10_code: 'XYZ', diagnosis_note: 'Coded locally.', laterality: 'RIGHT' },
  ],
  medication_orders: [
    { drug_name: 'Metformin', dose_quantity: 500, dose_unit: 'mg', frequency: 'TWO_A_DAY', timing: 'with meals', route: 'oral', duration_in_days: null, number_of_refills: 2, instructions: null, status: 'CONTINUED' },
    { drug_name: 'ibuprofen', dose_quantity: null, dose_unit: null, frequency: null, timing: null, route: null, duration_in_days: null, number_of_refills: null, instructions: null, status: 'NEW' },
  ],
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      seen.push({ auth: req.headers.authorization, body });
      if (req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      if (mode === 'error') { res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}'); return; }
      const content = body.response_format ? (mode === 'bad-json' ? '{"sections": "not an array"}' : JSON.stringify(LLM_NOTE)) : 'Plain words for the patient.';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const req: NoteRequest = {
  transcript: [
    { transcriptId: 't1', speaker: 'CLINICIAN', text: 'how is your diabetes?', startMs: 0, endMs: 1000 },
    { transcriptId: 't2', speaker: 'PATIENT', text: 'fine, i take my metformin.', startMs: 1000, endMs: 2000 },
    { transcriptId: 't3', speaker: 'CLINICIAN', text: 'continue metformin 500 mg twice a day with meals.', startMs: 2000, endMs: 3000 },
  ],
  sections: [{ loinc: '10154-3' }, { loinc: '51847-2' }],
  preferences: { verbosity: 'BALANCED', sectionFormat: {} },
};

describe('OpenAI-compatible notes engine', () => {
  it('sends a json_schema chat request and codes the validated answer with the local code sets', async () => {
    mode = 'ok';
    const engine = createNotesEngine({ engine: 'openai', baseUrl, apiKey: 'sk-test', model: 'gpt-test', codes: builtinCodeIndex() });
    expect(engine.name).toBe('openai');
    const r = await engine.generate(req);
    const call = seen.at(-1)!;
    expect(call.auth).toBe('Bearer sk-test');
    expect(call.body.model).toBe('gpt-test');
    expect(call.body.response_format.type).toBe('json_schema');
    expect(call.body.response_format.json_schema.strict).toBe(true);
    expect(call.body.messages[1].content).toContain('[t3] CLINICIAN: continue metformin');
    expect(r.summary.map((s) => s.loinc_code)).toEqual(['10154-3', '51847-2']);
    expect(r.summary[0].source_transcripts).toEqual(['t1']);
    const dx = r.structured_data.diagnoses.values;
    expect(dx[0].codes).toEqual([
      { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' },
      { code: 'HCC38', description: 'Diabetes with Glycemic, Unspecified, or No Complications', type: 'HCC' },
    ]);
    expect(dx[1]).toMatchObject({ codes: [{ code: 'M25.561' }], laterality_indicator: 'RIGHT' });
    const [met] = r.structured_data.orders.medication_orders.values;
    expect(met).toMatchObject({ drug_name: 'metformin', medication_code: { code: '6809', type: 'RXCUI' }, dosage: { quantity: 500, unit: 'MG' }, frequency: { structured_value: 'TWO_A_DAY' }, medication_timing: 'WITH_MEALS', status: 'CONTINUED', number_of_refills: 2 });
    expect(r.structured_data.orders.medication_orders.partial_values.map((o) => o.drug_name)).toEqual(['ibuprofen']);
  });

  it('falls back to the embedded engine on invalid output and on HTTP errors', async () => {
    const engine = new OpenAINotesEngine({ baseUrl, model: 'gpt-test', codes: builtinCodeIndex() });
    for (const m of ['bad-json', 'error'] as const) {
      mode = m;
      const r = await engine.generate(req);
      expect(r.summary.find((s) => s.loinc_code === '51847-2')!.content).toMatch(/metformin 500 mg twice (a day|daily) with meals/i);
      expect(r.structured_data.orders.medication_orders.values[0].drug_name).toBe('metformin');
    }
  });

  it('rewrites through the chat endpoint and falls back locally', async () => {
    const engine = new OpenAINotesEngine({ baseUrl, model: 'gpt-test', codes: builtinCodeIndex() });
    mode = 'ok';
    expect(await engine.rewrite({ selectedText: 'Pt has HTN.', instruction: 'PATIENT_FRIENDLY' })).toBe('Plain words for the patient.');
    expect(seen.at(-1)!.body.messages[0].content).toMatch(/sixth-grade/);
    mode = 'error';
    expect(await engine.rewrite({ selectedText: 'Pt has HTN.', instruction: 'PATIENT_FRIENDLY' })).toMatch(/high blood pressure/);
  });

  it('reads NOTES_ENGINE and defaults to the embedded engine', () => {
    expect(createNotesEngine({ codes: builtinCodeIndex() }).name).toBe('embedded');
    expect(() => createNotesEngine({ engine: 'openai' })).toThrow(/NOTES_BASE_URL/);
  });
});
