import type { AppContext } from '../context';

export interface ActiveStream {
  readonly sessionId: string;
  /** Ends the stream as if the connection dropped (session stays as it is); resolves once cleaned up. */
  stop(code: number, reason: string): Promise<void>;
}

/** The streams open in this process, by session: one live recording per session at a time. */
export class StreamHub {
  readonly bySession = new Map<string, ActiveStream>();
  readonly all = new Set<{ stop(code: number, reason: string): Promise<void> }>();
  /** Set at shutdown: new streams are refused with 1001 rather than opened and cut off. */
  stopping = false;

  /** Stops the session's current stream, if any, and waits until its audio is settled. */
  async takeOver(sessionId: string, reason: string): Promise<void> {
    const prev = this.bySession.get(sessionId);
    if (prev) await prev.stop(4409, reason);
  }

  /**
   * Stops the open streams `pick` chooses by their resource id (ambient session or transcription session),
   * each once its received audio is stored; their sessions stay as they are. For a disabled provider
   * (server/domain/sessions/close-provider-streams.ts), which decides from the database whose they are.
   */
  async stopStreamsOf(pick: (ids: string[]) => Promise<ReadonlySet<string>>, code: number, reason: string): Promise<void> {
    const open = [...this.all].map((s) => {
      const r = s as { sessionId?: string; transcriptionSessionId?: string };
      return { s, id: r.sessionId ?? r.transcriptionSessionId };
    });
    const ids = open.flatMap(({ id }) => (id ? [id] : []));
    if (ids.length === 0) return;
    const chosen = await pick([...new Set(ids)]);
    await Promise.all(open.filter(({ id }) => id && chosen.has(id)).map(({ s }) => s.stop(code, reason).catch(() => {})));
  }

  async stopAll(code: number, reason: string): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.all].map((s) => s.stop(code, reason).catch(() => {})));
  }
}

export function getHub(app: Pick<AppContext, 'services'>): StreamHub {
  return app.services.hub;
}
