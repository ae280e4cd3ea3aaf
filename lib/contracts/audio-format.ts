/**
 * The one audio format every stream, recording and engine uses: PCM16 little-endian, mono, 16 kHz. Part of
 * the stream protocol (stream-protocol.ts re-exports it), in a module of its own without zod, so the
 * AudioWorklet bundle (lib/audio/pcm-worklet.ts) can import it without the schemas.
 */
export const AUDIO_FORMAT = { encoding: 'LINEAR16', sampleRateHz: 16_000, channels: 1, bytesPerSample: 2 } as const;
export const SAMPLE_RATE_HZ = AUDIO_FORMAT.sampleRateHz;
export const BYTES_PER_SAMPLE = AUDIO_FORMAT.bytesPerSample;
/** 32 bytes a millisecond. */
export const BYTES_PER_MS = (SAMPLE_RATE_HZ * BYTES_PER_SAMPLE * AUDIO_FORMAT.channels) / 1000;
export const bytesToMs = (bytes: number): number => Math.floor(bytes / BYTES_PER_MS);
