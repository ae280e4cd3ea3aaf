import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { recordings } from '../../db/schema';

/** Records how much of an open recording is durably stored, so a crash loses nothing that was ACKed. */
export async function recordDurableBytes(app: Pick<AppContext, 'db'>, recordingId: string, bytes: number): Promise<void> {
  await app.db.update(recordings).set({ durableBytes: bytes }).where(eq(recordings.id, recordingId));
}
