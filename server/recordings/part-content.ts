import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import type { BlobStore } from '../blob/index';
import { probeSearchRange, windowHoldsProbe } from './join-contiguous-parts';

/** A recording part as stored, enough to say what it holds. */
export interface StoredPart {
  sequenceNumber: number;
  blobKey: string;
  /** START_TIME in ms since the epoch; null when the part never had one. */
  startTimeMs: number | null;
  /** Why the recorder began the part after a stretch nothing recorded (START_TIME's reason), if it said. */
  startReason: string | null;
  durableBytes: number;
}

/**
 * What a part holds that the parts before it do not. The listing and the FHIR export present only parts with
 * audio of their own; storage, the session timeline and the decoder keep every part as stored.
 */
export type PartContent =
  /** No audio: a connection that carried none. */
  | { kind: 'empty' }
  /**
   * Only the 1 ms probe of a reconnect (FrameBuffer's probe), which repeats audio of part `repeats`: the recorder
   * found everything it still kept already stored (ACKs lost with a dropped connection or a reload) and sent nothing after it.
   */
  | { kind: 'probe'; repeats: number }
  /**
   * Audio of its own. With `probeOf`, it opens with a reconnect's probe repeating part `probeOf.sequenceNumber` and
   * dated where that probe was captured (START_TIME), and the rest goes on from `probeOf.endMs`, where that part's
   * audio ends: its START_TIME lies before the audio it brings by the audio whose ACKs were lost.
   */
  | { kind: 'audio'; probeOf: { sequenceNumber: number; endMs: number } | null };

const AUDIO: PartContent = { kind: 'audio', probeOf: null };

/**
 * Each part's content, in the order given (sequence order). A part counts as opening with a probe when the
 * decoder would join it by its probe (join-contiguous-parts.ts): its first 1 ms is the stored audio of the part
 * before at its START_TIME. Only those few bytes are read, and only for parts whose times make them candidates;
 * a part whose bytes cannot be read is taken as its own audio, as it is stored.
 */
export async function readPartContent(blob: Pick<BlobStore, 'read'>, parts: readonly StoredPart[]): Promise<PartContent[]> {
  const out: PartContent[] = [];
  let prev: StoredPart | null = null;
  for (const part of parts) {
    if (part.durableBytes === 0) {
      out.push({ kind: 'empty' });
      continue;
    }
    out.push(prev ? await againstPrevious(blob, prev, part) : AUDIO);
    prev = part;
  }
  return out;
}

async function againstPrevious(blob: Pick<BlobStore, 'read'>, prev: StoredPart, part: StoredPart): Promise<PartContent> {
  if (part.startReason !== null || prev.startTimeMs === null || part.startTimeMs === null) return AUDIO;
  const range = probeSearchRange(prev.startTimeMs, prev.durableBytes, part.startTimeMs, part.durableBytes);
  if (!range) return AUDIO;
  let probe: boolean;
  try {
    const [window, head] = await Promise.all([blob.read(prev.blobKey, { start: range.from, end: range.to }), blob.read(part.blobKey, { start: 0, end: BYTES_PER_MS })]);
    probe = head.length === BYTES_PER_MS && windowHoldsProbe(window, head);
  } catch {
    probe = false;
  }
  if (!probe) return AUDIO;
  if (part.durableBytes <= BYTES_PER_MS) return { kind: 'probe', repeats: prev.sequenceNumber };
  return { kind: 'audio', probeOf: { sequenceNumber: prev.sequenceNumber, endMs: prev.startTimeMs + prev.durableBytes / BYTES_PER_MS } };
}

/** Parts a listing or an export presents: those with audio of their own. */
export function holdsOwnAudio(content: PartContent): content is Extract<PartContent, { kind: 'audio' }> {
  return content.kind === 'audio';
}
