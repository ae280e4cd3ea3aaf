import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../context';
import { transcriptEntries } from '../db/schema';
import { systemDb } from '../db/index';

const SYSTEM = 'recordings: a stream or upload whose session was found in its caller\'s scope when it opened';

/**
 * Records the speaker the live pass now gives each of these live entries, so a reloaded page or the
 * transcript endpoint shows the same labels as the stream sent. The final pass writes its own entries.
 */
export async function setLiveSpeakers(app: Pick<AppContext, 'db'>, sessionId: string, labels: { id: string; speaker: string }[]): Promise<void> {
  const bySpeaker = new Map<string, string[]>();
  for (const l of labels) bySpeaker.set(l.speaker, [...(bySpeaker.get(l.speaker) ?? []), l.id]);
  for (const [speaker, ids] of bySpeaker) {
    await systemDb(app, SYSTEM)
      .update(transcriptEntries)
      .set({ speaker })
      .where(and(eq(transcriptEntries.sessionId, sessionId), eq(transcriptEntries.source, 'live'), inArray(transcriptEntries.id, ids)));
  }
}
