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
  /** Per session, the tail of the queue of stream openings (take-over, recording, registration). */
  private readonly opening = new Map<string, Promise<void>>();

  /**
   * Stops every stream of the session open in this process and waits until its audio is settled. Waits
   * first for an opening in progress to register its stream, so that one is stopped too (finalisation).
   */
  async takeOver(sessionId: string, reason: string): Promise<void> {
    const unlock = await this.lockSession(sessionId);
    try {
      await this.stopSession(sessionId, reason);
    } finally {
      unlock();
    }
  }

  /** takeOver for a caller that already holds the session's lock (a new stream of the session). */
  async stopSession(sessionId: string, reason: string): Promise<void> {
    const open = [...this.all].filter((s) => (s as Partial<ActiveStream>).sessionId === sessionId);
    await Promise.all(open.map((s) => s.stop(4409, reason)));
  }

  /**
   * Makes the openings of one session's streams run one at a time in this process: each takes over the
   * stream before it and registers its own before the next starts, so parallel reconnects leave one stream
   * (issue 26: 10 concurrent handshakes left 4 open). Across processes the session row's lock, taken where
   * the recording is opened, orders them. Resolves with the release, which is safe to call more than once.
   */
  async lockSession(sessionId: string): Promise<() => void> {
    const prev = this.opening.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = prev.then(() => mine);
    this.opening.set(sessionId, tail);
    await prev;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      release();
      if (this.opening.get(sessionId) === tail) this.opening.delete(sessionId);
    };
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

export function getHub(app: { services: { hub: StreamHub } }): StreamHub {
  return app.services.hub;
}
