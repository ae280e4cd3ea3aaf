import { AUDIO_FORMAT, BYTES_PER_SAMPLE, SAMPLE_RATE_HZ } from '../contracts/stream-protocol';

export const WAV_HEADER_BYTES = 44;

/** The canonical 44-byte RIFF/WAVE header for `dataBytes` of PCM16 little-endian audio. Browser-safe. */
export function wavHeader(dataBytes: number, sampleRate: number = SAMPLE_RATE_HZ, channels: number = AUDIO_FORMAT.channels): Uint8Array {
  const bytes = new Uint8Array(WAV_HEADER_BYTES);
  const h = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  const blockAlign = channels * BYTES_PER_SAMPLE;
  ascii(0, 'RIFF');
  // Sizes saturate rather than wrap for data past 4 GiB, so a player reads to the end instead of stopping early.
  h.setUint32(4, Math.min(0xffffffff, 36 + dataBytes), true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  h.setUint32(16, 16, true); // fmt chunk size
  h.setUint16(20, 1, true); // PCM
  h.setUint16(22, channels, true);
  h.setUint32(24, sampleRate, true);
  h.setUint32(28, sampleRate * blockAlign, true);
  h.setUint16(32, blockAlign, true);
  h.setUint16(34, BYTES_PER_SAMPLE * 8, true);
  ascii(36, 'data');
  h.setUint32(40, Math.min(0xffffffff - 36, dataBytes), true);
  return bytes;
}

/** PCM byte count rounded down to whole samples, so a half-written sample never reaches a player or a decoder. */
export function wholeSampleBytes(bytes: number): number {
  return bytes - (bytes % BYTES_PER_SAMPLE);
}
