/**
 * What finalisation needs from the streams open in this process: every open stream of a session is ended
 * (after any opening of one in progress), and its last audio and live segments settled, before the stored
 * audio is read. Streams in other processes end on the status change finalisation made (status bus). The
 * realtime hub provides it, wired by the composition root (server/services.ts), so the pipeline never
 * imports server/realtime: realtime calls the pipeline, not the reverse (layering.test.ts pins it).
 */
export interface OpenStreams {
  takeOver(sessionId: string, reason: string): Promise<void>;
}
