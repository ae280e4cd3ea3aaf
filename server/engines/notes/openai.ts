import { defaultCodeIndex, type CodeIndex } from '@/server/codesets/index';
import type { NoteRequest, NoteResult, NotesEngine, RewriteRequest } from './types';
import { EmbeddedNotesEngine } from './embedded/index';
import { DEFAULT_NOTE_SECTIONS } from './embedded/vocab';
import { ChatClient, NotesModelError, UnusableAnswer, type ChatClientOptions } from './openai-client';
import { NOTE_JSON_SCHEMA, readNoteAnswer } from './openai-answer';
import { mapNoteAnswer } from './openai-mapping';
import { SYSTEM_PROMPT, visitMessage } from './openai-prompt';

export { NOTE_JSON_SCHEMA } from './openai-answer';
export { NotesModelError } from './openai-client';

export interface OpenAINotesEngineOptions extends ChatClientOptions {
  codes?: CodeIndex;
  /**
   * NOTES_FALLBACK=embedded: the engine that writes the note when the model cannot (marked on the note as
   * `fallback`). Without it a failure of the model fails the note, with the reason in the session's status.
   */
  fallback?: NotesEngine;
}

const REWRITE_PROMPTS: Record<RewriteRequest['instruction'], string> = {
  CONCISE: 'Rewrite the selected clinical note text to be more concise: remove redundancy and filler. Keep every clinical fact (numbers, drugs, doses, laterality, negations).',
  VERBOSE: 'Rewrite the selected clinical note text in fuller sentences, expanding abbreviations. Add no new facts; keep every clinical fact.',
  PATIENT_FRIENDLY: 'Rewrite the selected clinical note text for the patient at a sixth-grade reading level, replacing medical jargon with plain words. Keep every clinical fact.',
};

/**
 * Notes through an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, llama.cpp's server, vLLM).
 * The answer is read whole or refused (openai-answer.ts), its codes are checked against the code sets, and
 * the guard in front of every engine (guard/) removes what the visit does not support.
 */
export class OpenAINotesEngine implements NotesEngine {
  readonly name = 'openai';
  private codes: CodeIndex;
  private client: ChatClient;
  /** Fills forms (deterministic, field-type checked) and codes allergies and lab/imaging orders whichever engine writes the prose. */
  private forms: EmbeddedNotesEngine;
  constructor(private opts: OpenAINotesEngineOptions) {
    this.codes = opts.codes ?? defaultCodeIndex();
    this.client = new ChatClient(opts);
    this.forms = new EmbeddedNotesEngine({ codes: this.codes });
  }

  async generate(req: NoteRequest): Promise<NoteResult> {
    const loincs = req.sections?.length ? req.sections.map((s) => s.loinc) : [...DEFAULT_NOTE_SECTIONS];
    try {
      const llm = await this.client.complete(
        {
          messages: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: visitMessage(req, loincs) }],
          temperature: 0,
          response_format: { type: 'json_schema', json_schema: { name: 'clinical_note', strict: true, schema: NOTE_JSON_SCHEMA } },
        },
        readNoteAnswer,
      );
      const rules = (await this.forms.generate(req)).structured_data;
      return mapNoteAnswer({ llm, req, loincs, codes: this.codes, forms: rules.section_structured_values, allergies: rules.allergies.values, serviceOrders: rules.orders.service_orders.values });
    } catch (err) {
      if (!(err instanceof NotesModelError) || !this.opts.fallback) throw err;
      const note = await this.opts.fallback.generate(req);
      return { ...note, fallback: { engine: this.opts.fallback.name, from: this.name, reason: err.message } };
    }
  }

  async rewrite(req: RewriteRequest): Promise<string> {
    try {
      return await this.client.complete(
        {
          temperature: 0,
          messages: [
            { role: 'system', content: `${REWRITE_PROMPTS[req.instruction]} Answer with the rewritten text only.` },
            { role: 'user', content: `Context before: ${req.contextBefore ?? ''}\nSelected text: ${req.selectedText}\nContext after: ${req.contextAfter ?? ''}` },
          ],
        },
        (a) => {
          const text = a.content.trim();
          if (!text || a.finishReason === 'length') throw new UnusableAnswer(text ? 'stopped at its token limit' : 'answered no text');
          return text;
        },
      );
    } catch (err) {
      if (!(err instanceof NotesModelError) || !this.opts.fallback) throw err;
      return this.opts.fallback.rewrite(req);
    }
  }
}
