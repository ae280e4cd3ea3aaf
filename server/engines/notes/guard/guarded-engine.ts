import type { Logger } from 'pino';
import type { NoteRequest, NoteResult, NotesEngine, RewriteRequest } from '../types';
import type { GuardMetrics } from './guard-metrics';
import { guardNote } from './guard-note';

export interface GuardOptions {
  metrics?: GuardMetrics;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Any notes engine behind the faithfulness guard (issue 32): every note it generates is checked against the
 * transcript and the session context before anyone reads it. A note the embedded engine wrote (its own or as
 * a fallback) is only recorded; a language model's loses what the visit does not support. Decisions are
 * logged as counts with the session id, never text, and counted on /metrics.
 */
export class GuardedNotesEngine implements NotesEngine {
  readonly name: string;
  constructor(
    private readonly inner: NotesEngine,
    private readonly opts: GuardOptions = {},
  ) {
    this.name = inner.name;
  }

  async generate(req: NoteRequest): Promise<NoteResult> {
    const raw = await this.inner.generate(req);
    const writer = raw.fallback?.engine ?? this.inner.name;
    const mode = writer === 'embedded' ? 'record' : 'remove';
    let guarded: ReturnType<typeof guardNote>;
    try {
      guarded = guardNote(raw, req, mode);
    } catch (err) {
      // A note that was only to be recorded stands without its record; a model's note is never served unchecked.
      if (mode === 'remove') throw err;
      this.opts.log?.warn({ sessionId: req.sessionId, engine: writer, err: (err as Error).message }, 'notes guard: check failed, note kept as written');
      return raw;
    }
    const { note, decision } = guarded;
    this.opts.metrics?.record(writer, decision);
    const fields = { sessionId: req.sessionId, engine: writer, ...(raw.fallback ? { fallbackFrom: raw.fallback.from } : {}), ...decision };
    if (decision.remaining) this.opts.log?.warn(fields, 'notes guard: unsupported facts left in the note');
    else this.opts.log?.info(fields, 'notes guard');
    return note;
  }

  rewrite(req: RewriteRequest): Promise<string> {
    return this.inner.rewrite(req);
  }
}
