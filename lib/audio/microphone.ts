'use client';
/**
 * Microphone capture for the recorder: getUserMedia → AudioWorklet (public/audio/pcm-worklet.js converts to
 * 16 kHz PCM16 in 100 ms frames) → `onFrame`. Nothing here knows about sockets or sessions.
 */
import type { RecorderErrorKind } from '@/lib/stores/recorder';

export function microphoneError(err: unknown): { kind: RecorderErrorKind; message: string } {
  const name = (err as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return {
      kind: 'mic-denied',
      message:
        'Microphone access is blocked. Allow the microphone for this site (the icon at the left of the address bar), then press Start recording again.',
    };
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') {
    return { kind: 'no-device', message: 'No microphone was found. Connect a microphone, choose it in the Microphone list, and press Start recording.' };
  }
  if (name === 'NotReadableError') {
    return { kind: 'mic-failed', message: 'The microphone is in use by another application or could not be started. Close the other application and try again.' };
  }
  return { kind: 'mic-failed', message: `The microphone could not be started (${(err as Error)?.message ?? 'unknown error'}).` };
}

export async function listInputDevices(): Promise<Array<{ deviceId: string; label: string }>> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const all = await navigator.mediaDevices.enumerateDevices();
  return all
    .filter((d) => d.kind === 'audioinput')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || (d.deviceId === 'default' ? 'Default microphone' : `Microphone ${i + 1}`) }));
}

export interface CaptureHandlers {
  /** One frame of PCM16 mono 16 kHz samples and the input level (0–1). */
  onFrame(samples: Int16Array, level: number): void;
  /** The device went away (unplugged, revoked). */
  onEnded(): void;
}

export type CaptureResult = { ok: true } | { ok: false; kind: RecorderErrorKind; message: string; opened: boolean };

export class MicrophoneCapture {
  private media: MediaStream | null = null;
  private ctx: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;
  private flushResolve: (() => void) | null = null;

  constructor(private readonly handlers: CaptureHandlers) {}

  get running(): boolean {
    return this.node !== null;
  }

  /** Opens the microphone and the worklet; a failure is described, not thrown. `opened`: the device was granted. */
  async start(deviceId?: string): Promise<CaptureResult> {
    if (!navigator.mediaDevices?.getUserMedia) {
      return { ok: false, opened: false, kind: 'no-device', message: 'This browser cannot record audio here (a secure https:// page is required).' };
    }
    try {
      this.media = await navigator.mediaDevices.getUserMedia({
        audio: {
          deviceId: deviceId ? { exact: deviceId } : undefined,
          channelCount: 1,
          // Call-style processing (made for a far end and a speaker) garbles speech for the recogniser;
          // an ambient room recording is sent as captured.
          echoCancellation: false,
          noiseSuppression: false,
          autoGainControl: false,
        },
      });
    } catch (err) {
      return { ok: false, opened: false, ...microphoneError(err) };
    }
    try {
      this.ctx = new AudioContext();
      await this.ctx.audioWorklet.addModule('/audio/pcm-worklet.js');
      const source = this.ctx.createMediaStreamSource(this.media);
      this.node = new AudioWorkletNode(this.ctx, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCountMode: 'explicit', channelCount: 2 });
      // The worklet only runs while connected to the graph; a muted gain keeps it silent.
      const mute = this.ctx.createGain();
      mute.gain.value = 0;
      source.connect(this.node).connect(mute).connect(this.ctx.destination);
      this.node.port.onmessage = (e: MessageEvent) => this.onWorklet(e.data);
      await this.ctx.resume();
    } catch (err) {
      return { ok: false, opened: true, kind: 'mic-failed', message: `Audio processing could not start (${(err as Error).message}).` };
    }
    this.media.getAudioTracks()[0]?.addEventListener('ended', () => this.handlers.onEnded());
    return { ok: true };
  }

  private onWorklet(msg: { type: string; pcm?: ArrayBuffer; level?: number }) {
    if (msg.type === 'flushed') {
      this.flushResolve?.();
      return;
    }
    if (msg.type === 'frame' && msg.pcm) this.handlers.onFrame(new Int16Array(msg.pcm), msg.level ?? 0);
  }

  /** Has the worklet emit its last partial frame; resolves when it has, or after a second. */
  async flush(): Promise<void> {
    const node = this.node;
    if (!node) return;
    await new Promise<void>((resolve) => {
      this.flushResolve = resolve;
      node.port.postMessage({ type: 'flush' });
      setTimeout(resolve, 1_000);
    });
    this.flushResolve = null;
  }

  stop(): void {
    this.media?.getTracks().forEach((t) => t.stop());
    this.media = null;
    this.node?.port.close();
    this.node = null;
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}
