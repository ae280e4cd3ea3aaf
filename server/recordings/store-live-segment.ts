import type { TranscriptWord } from '@/lib/transcript/confidence';
import type { AppContext } from '../context';
import { transcriptEntries } from '../db/schema';
import { systemDb } from '../db/index';

const SYSTEM = 'recordings: a stream or upload whose session was found in its caller\'s scope when it opened';

/** One final segment of the live recogniser, placed on the session timeline. */
export interface LiveSegmentEntry {
  id: string;
  sessionId: string;
  recordingId: string;
  position: number;
  text: string;
  speaker: string;
  langId: string;
  startOffsetMs: number;
  endOffsetMs: number;
  confidence: number | null;
  words: TranscriptWord[] | null;
}

/** Stores a live transcript entry; the final pass later writes its own entries beside these. */
export async function storeLiveSegment(app: Pick<AppContext, 'db'>, entry: LiveSegmentEntry): Promise<void> {
  await systemDb(app, SYSTEM).insert(transcriptEntries).values({ ...entry, source: 'live' });
}
