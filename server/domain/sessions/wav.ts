export const WAV_HEADER_BYTES = 44;
export const SAMPLE_RATE = 16_000;
export const BYTES_PER_SAMPLE = 2;

/** The canonical 44-byte RIFF/WAVE header for `dataBytes` of PCM16 little-endian mono audio. */
export function wavHeader(dataBytes: number, sampleRate = SAMPLE_RATE, channels = 1): Buffer {
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  const blockAlign = channels * BYTES_PER_SAMPLE;
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(Math.min(0xffffffff - 36, dataBytes), 40);
  return h;
}

/** PCM byte count rounded down to whole samples, so a half-written sample never reaches a player. */
export function wholeSampleBytes(bytes: number): number {
  return bytes - (bytes % BYTES_PER_SAMPLE);
}

/** Milliseconds of PCM16 16 kHz mono audio in `bytes`. */
export function pcmBytesToMs(bytes: number): number {
  return Math.floor((wholeSampleBytes(bytes) / (SAMPLE_RATE * BYTES_PER_SAMPLE)) * 1000);
}
