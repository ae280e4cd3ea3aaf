import type { SpeechSegment } from '../engines/speech/types';
import { assignRolesFromFeatures, voiceFeatures } from '../engines/speech/speakers';
import { pcm16View } from '../engines/speech/audio';
import { timeStageCpu } from '../engines/speech/stage-cpu';
import { BYTES_PER_MS, type ServerFrame } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../context';
import { getBlobStore } from '../blob/index';
import type { OpenedRecording } from '../recordings/open-recording';
import { setLiveSpeakers } from '../recordings/set-live-speakers';

/** The newest lines re-clustered on each arrival; older lines keep the label they were last given. */
const WINDOW = 200;

export interface LiveLine {
  id: string;
  text: string;
  /** On the session timeline. */
  startMs: number;
  endMs: number;
}

export interface SpeakerLabel {
  id: string;
  speaker: string;
}

/**
 * Speaker roles for the live transcript, as each final line arrives: the line's voice features are computed
 * once from its stored audio, and the lines so far are clustered into two voices and named by what they
 * say, as the final pass does for the whole visit (server/engines/speech/speakers.ts). A first line is
 * named by its words alone; as more arrive, the voices decide and a label may change. Only changed labels
 * are reported. Runs one update at a time; lines arriving meanwhile join the next one.
 */
export class LiveSpeakers {
  private readonly lines: (LiveLine & { feats: number[] | null })[] = [];
  private readonly sent = new Map<string, string>();
  private pending: LiveLine[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    /** Reads the recording's bytes of a span of the session timeline. */
    private readonly readAudio: (startMs: number, endMs: number) => Promise<Buffer>,
    private readonly report: (labels: SpeakerLabel[]) => Promise<void> | void,
    private readonly warn: (err: Error) => void,
  ) {}

  add(line: LiveLine): void {
    if (this.closed) return;
    this.pending.push(line);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Labels the lines already added, then stops. */
  async close(): Promise<void> {
    await this.running;
    this.closed = true;
  }

  private async drain(): Promise<void> {
    while (this.pending.length && !this.closed) {
      const batch = this.pending;
      this.pending = [];
      try {
        for (const line of batch) {
          const pcm = await this.readAudio(line.startMs, line.endMs);
          // Yields between lines: the features of a long line are the costly part, and the stream's frames come first.
          await new Promise((r) => setImmediate(r));
          const whole = pcm.subarray(0, pcm.length - (pcm.length % 2));
          const feats = whole.length >= BYTES_PER_MS * 100 ? timeStageCpu('speaker_roles', () => voiceFeatures(pcm16View(whole))) : null;
          this.lines.push({ ...line, feats });
        }
        const changed = this.label();
        if (changed.length) await this.report(changed);
      } catch (err) {
        this.warn(err as Error);
      }
    }
  }

  private label(): SpeakerLabel[] {
    const recent = this.lines.slice(-WINDOW);
    const segments: SpeechSegment[] = recent.map((l) => ({ text: l.text, startMs: l.startMs, endMs: l.endMs, isFinal: true, words: [] }));
    const roles = timeStageCpu('speaker_roles', () => assignRolesFromFeatures(segments, recent.map((l) => l.feats)));
    const changed: SpeakerLabel[] = [];
    recent.forEach((l, i) => {
      const speaker = roles[i]?.speaker ?? 'UNKNOWN';
      if ((this.sent.get(l.id) ?? 'UNKNOWN') === speaker) return;
      this.sent.set(l.id, speaker);
      changed.push({ id: l.id, speaker });
    });
    return changed;
  }
}

/** The live labeller of one /ws/ambient recording: it reads the recording's blob, sends SPEAKERS frames and stores the labels. */
export function streamSpeakers(
  app: AppContext,
  sessionId: string,
  rec: Pick<OpenedRecording, 'blobKey' | 'sessionOffsetMs'>,
  send: (frame: ServerFrame) => void,
): LiveSpeakers {
  const blob = getBlobStore(app);
  const at = (ms: number) => Math.max(0, Math.round(ms - rec.sessionOffsetMs)) * BYTES_PER_MS;
  return new LiveSpeakers(
    (startMs, endMs) => blob.read(rec.blobKey, { start: at(startMs), end: at(endMs) }),
    async (labels) => {
      send({ type: 'SPEAKERS', labels: labels.map((l) => ({ transcript_id: l.id, speaker: l.speaker })) });
      await setLiveSpeakers(app, sessionId, labels);
    },
    (err) => app.log.warn({ sessionId, err: err.message }, 'live speaker labels not updated'),
  );
}
