/**
 * The language-model notes engine behind the faithfulness guard (issue 32), against the STAND-IN chat server
 * of server/test/openai-chat-stand-in.ts (a real HTTP server in this process standing in for an
 * OpenAI-compatible server, since none can be reached here). The stand-in answers with a note that invents a
 * dose, a diagnosis and an allergy, codes diabetes with a nonexistent ICD-10-CM code and cites ids that do
 * not exist; what comes out of the engine has 0 unsupported facts and lists each removal in left_out.
 */
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '@/server/codesets/index';
import { checkNoteFaithfulness } from './faithfulness/index';
import { createNotesEngine } from './index';
import type { NoteRequest, NoteResult } from './types';
import { startChatStandIn, type ChatStandIn } from '@/server/test/openai-chat-stand-in';
import { FAKE_ID, INVENTED, VISIT_TURNS, inventingModelNote } from '@/server/test/inventing-model-note';

let standIn: ChatStandIn;
beforeAll(async () => {
  standIn = await startChatStandIn((req) => ({ content: JSON.stringify(inventingModelNote(req.lines)) }));
});
afterAll(() => standIn.close());

const req: NoteRequest = {
  transcript: VISIT_TURNS.map((t, i) => ({ transcriptId: `t${i + 1}`, speaker: t.role, text: t.text, startMs: i * 3000, endMs: i * 3000 + 2500 })),
  sections: [{ loinc: '10164-2' }, { loinc: '48765-2' }, { loinc: '51847-2', precharted: [{ type: 'string', content: 'Recheck in 4 weeks.' }] }],
  preferences: { verbosity: 'CONCISE', sectionFormat: { '51847-2': 'BULLETED' } },
  sessionId: 'session-under-test',
};

function build(registry = new Registry(), log?: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }) {
  return createNotesEngine({ engine: 'openai', baseUrl: standIn.baseUrl, apiKey: 'sk-test', model: 'stand-in-model', codes: builtinCodeIndex(), metrics: registry, log: log as never, retryBaseMs: 1 });
}

const text = (n: NoteResult) => n.summary.map((s) => s.content).join('\n');

describe('OpenAI-compatible notes engine behind the guard', () => {
  let note: NoteResult;
  const registry = new Registry();
  const logged: Array<{ fields: any; msg: string }> = [];
  beforeAll(async () => {
    const log = { info: (fields: object, msg: string) => logged.push({ fields, msg }), warn: (fields: object, msg: string) => logged.push({ fields, msg }) };
    note = await build(registry, log).generate(req);
  });

  it('asks for structured output with evidence per sentence and per coded item, with the preferences as instructions', () => {
    const call = standIn.requests.at(-1)!;
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.body.model).toBe('stand-in-model');
    expect(call.body.response_format.json_schema.strict).toBe(true);
    const schema = call.body.response_format.json_schema.schema.properties;
    expect(schema.sections.items.properties.sentences.items.required).toEqual(['text', 'evidence']);
    expect(schema.diagnoses.items.required).toContain('evidence');
    expect(schema.medication_orders.items.required).toContain('evidence');
    const user = call.body.messages[1].content as string;
    expect(user).toContain('[t8] CLINICIAN: Continue metformin five hundred milligrams twice a day.');
    expect(user).toMatch(/Be concise/);
    expect(user).toMatch(/one short item per sentence: 51847-2/);
    expect(user).toContain('The clinician already wrote for 51847-2 (keep it): Recheck in 4 weeks.');
  });

  it('removes the invented dose, diagnosis and allergy from the text and the coded data; 0 unsupported facts remain', () => {
    const report = checkNoteFaithfulness(note, req.transcript, { clinicianText: ['Recheck in 4 weeks.'] });
    expect(report.unsupported.map((u) => `${u.sentence.text}: ${u.result.fact.kind}`)).toEqual([]);
    expect(report.sentences.filter((s) => s.noEvidence)).toEqual([]);
    expect(text(note)).not.toMatch(/1000|heart failure|sulfa/i);
    // What the visit supports stays.
    expect(text(note)).toMatch(/penicillin/);
    expect(text(note)).toMatch(/increase lisinopril to 20 mg daily/i);
    expect(text(note)).toMatch(/denies chest pain/i);
    expect(note.summary.find((s) => s.loinc_code === '51847-2')!.content.split('\n').every((l) => l.startsWith('- '))).toBe(true);
    const codes = note.structured_data.diagnoses.values.map((d) => d.codes[0].code);
    expect(codes).toEqual(['I10', 'E11.9']);
    const orders = note.structured_data.orders.medication_orders;
    expect(orders.values.map((o) => [o.drug_name, o.dosage.quantity, o.status])).toEqual([['lisinopril', 20, 'CHANGED']]);
    // Metformin was said; its dose of 1000 mg was not: the order stays for the clinician to complete, without it.
    expect(orders.partial_values.map((o) => [o.drug_name, o.dosage.quantity, o.frequency.structured_value])).toEqual([['metformin', null, 'TWO_A_DAY']]);
  });

  it('lists every removal in left_out as UNSUPPORTED, with its kind and the entries the model cited that exist', () => {
    const left = note.left_out ?? [];
    expect(left.every((l) => l.reason === 'UNSUPPORTED')).toBe(true);
    const find = (kind: string, re: RegExp) => left.find((l) => l.kind === kind && re.test(l.text));
    expect(find('diagnosis', INVENTED.diagnosis)).toMatchObject({ text: 'I50.9 Heart failure, unspecified', source_transcripts: [] });
    expect(find('medication_order', INVENTED.dose)).toBeDefined();
    expect(find('allergy', INVENTED.allergy)).toMatchObject({ loinc_code: '48765-2', source_transcripts: [] });
    expect(find('sentence', /heart failure/i)).toMatchObject({ loinc_code: '10164-2', source_transcripts: ['t1', 't7'] });
    // The dose went from the plan sentence; the sentence was about metformin only, so it went whole.
    expect(left.some((l) => ['span', 'sentence'].includes(l.kind) && /1000/.test(l.text))).toBe(true);
    expect(left.flatMap((l) => l.source_transcripts)).not.toContain(FAKE_ID);
  });

  it('codes the allergy the patient said (not the one the model invented) from the transcript, as the embedded engine does (issue 29)', () => {
    expect(note.structured_data.allergies.values.map((a) => [a.substance, a.substance_code?.code, a.reaction, a.verification])).toEqual([['penicillin', 'J01C', 'rash', 'REPORTED']]);
    expect(note.structured_data.orders.service_orders.values).toEqual([]);
  });

  it('keeps only evidence ids that exist and hold the fact', () => {
    const ids = new Set(req.transcript.map((l) => l.transcriptId));
    const all = [
      ...note.summary.flatMap((s) => [...s.source_transcripts, ...(s.sentences ?? []).flatMap((x) => x.source_transcripts)]),
      ...note.structured_data.diagnoses.values.flatMap((d) => d.source_transcripts ?? []),
      ...note.structured_data.orders.medication_orders.values.flatMap((o) => o.source_transcripts ?? []),
    ];
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((id) => ids.has(id))).toBe(true);
    // Hypertension cited [FAKE_ID, t1]: only t1 remains. The plan sentence cited [t7, FAKE_ID]: t7.
    expect(note.structured_data.diagnoses.values[0].source_transcripts).toContain('t1');
    const plan = note.summary.find((s) => s.loinc_code === '51847-2')!.sentences!.find((s) => /lisinopril/.test(s.text))!;
    expect(plan.source_transcripts).toEqual(['t7']);
    // The penicillin allergy is held by t6, whatever the model cited.
    const allergy = note.summary.find((s) => s.loinc_code === '48765-2')!.sentences![0];
    expect(allergy.source_transcripts).toEqual(['t6']);
  });

  it('replaces a nonexistent ICD-10-CM code with the code index match, and never passes it through', () => {
    const dm = note.structured_data.diagnoses.values.find((d) => d.codes[0].code.startsWith('E11'))!;
    expect(dm.codes[0]).toEqual({ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications', type: 'ICD10' });
    expect(JSON.stringify(note)).not.toContain('E11.999');
  });

  it('logs its decision as counts with the session id, never note text, and counts it on /metrics', async () => {
    const line = logged.find((l) => l.msg === 'notes guard')!;
    expect(line.fields).toMatchObject({ sessionId: 'session-under-test', engine: 'openai', mode: 'remove', remaining: 0 });
    expect(line.fields.removed).toMatchObject({ diagnosis: 1, allergy: 1 });
    expect(JSON.stringify(line.fields)).not.toMatch(/sulfa|metformin|heart|penicillin/i);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/notes_guard_notes_total\{engine="openai",outcome="removed"\} 1/);
    expect(metrics).toMatch(/notes_guard_removed_total\{engine="openai",kind="diagnosis"\} 1/);
    expect(metrics).toMatch(/notes_guard_unsupported_facts_total\{engine="openai",kind="allergy"\} 1/);
  });
});

describe('the guard in front of the embedded engine', () => {
  it('only records: the note is the engine\'s own, and a clean visit counts as clean', async () => {
    const registry = new Registry();
    const logged: any[] = [];
    const log = { info: (f: object) => logged.push(f), warn: (f: object) => logged.push(f) };
    const guarded = createNotesEngine({ codes: builtinCodeIndex(), metrics: registry, log: log as never });
    expect(guarded.name).toBe('embedded');
    const { EmbeddedNotesEngine } = await import('./embedded/index');
    const own = await new EmbeddedNotesEngine({ codes: builtinCodeIndex() }).generate(req);
    const note = await guarded.generate(req);
    expect(note).toEqual(own);
    expect(logged[0]).toMatchObject({ engine: 'embedded', mode: 'record', removed: {} });
    expect(await registry.metrics()).toMatch(/notes_guard_notes_total\{engine="embedded",outcome="(clean|flagged)"\} 1/);
  });
});
