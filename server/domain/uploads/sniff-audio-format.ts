import type { UploadFormat } from '@/lib/contracts/uploads';

const ascii = (b: Buffer, at: number, text: string) => b.length >= at + text.length && b.toString('latin1', at, at + text.length) === text;

/**
 * The container of an uploaded file from its first bytes, or null for anything that is not one of the
 * accepted kinds. The file's own bytes decide, not its name or declared type: the decoder is then told
 * exactly which demuxer to use, so it never guesses its way into a playlist or another protocol.
 */
export function sniffAudioFormat(head: Buffer): UploadFormat | null {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return 'wav';
  if (ascii(head, 0, 'fLaC')) return 'flac';
  if (ascii(head, 0, 'OggS')) return 'ogg';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (ascii(head, 4, 'ftyp')) return 'm4a';
  if (ascii(head, 0, 'ID3')) return 'mp3';
  if (head.length >= 2 && head[0] === 0xff) {
    const b = head[1]!;
    // ADTS (AAC): sync 0xFFF, layer bits 00. MPEG audio layer III: sync 0xFFE, layer bits 01.
    if ((b & 0xf6) === 0xf0) return 'aac';
    if ((b & 0xe0) === 0xe0 && (b & 0x06) === 0x02) return 'mp3';
  }
  return null;
}

/** The ffmpeg demuxer for each container. */
export const DEMUXER: Record<UploadFormat, string> = {
  wav: 'wav',
  flac: 'flac',
  ogg: 'ogg',
  webm: 'matroska',
  m4a: 'mov',
  mp3: 'mp3',
  aac: 'aac',
};
