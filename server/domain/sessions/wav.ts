import { wavHeader as writeWavHeader, wholeSampleBytes } from '@/lib/audio/wav';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';

export { WAV_HEADER_BYTES, wholeSampleBytes } from '@/lib/audio/wav';

/** The header as a Buffer, for responses that stream it ahead of the stored PCM. */
export function wavHeader(dataBytes: number, sampleRate?: number, channels?: number): Buffer {
  return Buffer.from(writeWavHeader(dataBytes, sampleRate, channels));
}

/** Milliseconds of stored audio in `bytes`. */
export function pcmBytesToMs(bytes: number): number {
  return Math.floor(wholeSampleBytes(bytes) / BYTES_PER_MS);
}
