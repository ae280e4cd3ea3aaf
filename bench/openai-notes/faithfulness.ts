/**
 * bench:faithfulness --engine openai --base-url <url> [--model <name>] [--api-key <key>] [--limit <n>]
 * The same faithfulness bench against a language model behind any OpenAI-compatible server (Ollama,
 * llama.cpp's server, vLLM; README "Notes from a local language model"). Per set it prints the model's notes
 * as they came (what a scribe without a guard would have shown) and after the guard (issue 32), with what the
 * guard removed. It first asks the server for its models, and says plainly when no server is reachable.
 */
import { checkNoteFaithfulness } from '../../server/engines/notes/faithfulness/index';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { guardNote } from '../../server/engines/notes/guard/index';
import { OpenAINotesEngine } from '../../server/engines/notes/openai';
import type { NoteRequest } from '../../server/engines/notes/types';
import { summarise, type NoteCheck } from '../faithfulness/summarise';

type Row = { encounter_id: string; dialogue: string };
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** Whether an OpenAI-compatible server answers GET {base}/models; the reason when it does not. */
async function reachable(baseUrl: string, apiKey?: string): Promise<string | undefined> {
  const base = baseUrl.replace(/\/+$/, '');
  const url = /\/v\d+$/.test(base) ? `${base}/models` : `${base}/v1/models`;
  try {
    const res = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.ok ? undefined : `${url} answered HTTP ${res.status}`;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return `${url}: ${e.name === 'TimeoutError' ? 'no answer in 10 s' : (e.cause?.code ?? (e.cause as Error | undefined)?.message ?? e.message)}`;
  }
}

export async function runOpenAIFaithfulness(sets: Array<[string, Row[]]>, opts: { verbose: boolean }): Promise<number> {
  const baseUrl = arg('base-url') ?? process.env.NOTES_BASE_URL;
  const model = arg('model') ?? process.env.NOTES_MODEL;
  const apiKey = arg('api-key') ?? process.env.NOTES_API_KEY;
  const limit = Number(arg('limit') ?? Infinity);
  if (!baseUrl || !model) {
    console.log('--engine openai needs --base-url (or NOTES_BASE_URL) and --model (or NOTES_MODEL)');
    return 2;
  }
  const down = await reachable(baseUrl, apiKey);
  if (down) {
    console.log(`No OpenAI-compatible server is reachable at ${baseUrl} (${down}). Start one (README: Notes from a local language model) or pass --base-url. Nothing was measured.`);
    return 1;
  }
  // One attempt per note, no fallback: a failure is counted, never replaced by the embedded engine's note.
  const engine = new OpenAINotesEngine({ baseUrl, model, apiKey, maxRetries: 1, concurrency: 1, timeoutMs: 600_000 });
  for (const [name, all] of sets) {
    const rows = all.slice(0, limit);
    const raw: NoteCheck[] = [];
    const guarded: NoteCheck[] = [];
    const removed = new Map<string, number>();
    let failed = 0;
    for (const row of rows) {
      const transcript = dialogueToTranscript(row.dialogue);
      const req: NoteRequest = { transcript, sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } };
      try {
        const note = await engine.generate(req);
        raw.push({ id: row.encounter_id, report: checkNoteFaithfulness(note, transcript) });
        const after = guardNote(note, req, 'remove');
        guarded.push({ id: row.encounter_id, report: checkNoteFaithfulness(after.note, transcript) });
        for (const [k, v] of Object.entries(after.decision.removed)) removed.set(k, (removed.get(k) ?? 0) + (v ?? 0));
      } catch (err) {
        failed++;
        console.log(`${row.encounter_id}: ${(err as Error).message}`);
      }
    }
    console.log(summarise(`${name}, ${model} as it answered`, raw, opts).join('\n'));
    console.log(summarise(`${name}, ${model} after the guard`, guarded, opts).join('\n'));
    console.log(`guard removed: ${[...removed].map(([k, v]) => `${k} ${v}`).join(', ') || 'nothing'}; notes that failed: ${failed} of ${rows.length}\n`);
  }
  return 0;
}
