import { spawn } from 'node:child_process';
import { apiError } from '@/lib/errors';
import type { UploadFormat } from '@/lib/contracts/uploads';
import { AUDIO_FORMAT } from '@/lib/contracts/stream-protocol';
import { DEMUXER } from './sniff-audio-format';

/**
 * Decodes an uploaded file into the stream's audio format (PCM16 LE mono 16 kHz) with ffmpeg (Debian's
 * package, installed by scripts/setup.sh): a maintained decoder for every accepted format rather than one
 * of our own. The demuxer is named from the sniffed container and only local files may be opened, so a
 * crafted file cannot make ffmpeg fetch a URL or follow a playlist. Audio past `maxSeconds` is not decoded.
 */
export async function decodeAudioFile(input: string, output: string, format: UploadFormat, maxSeconds: number): Promise<void> {
  const args = [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-xerror',
    '-protocol_whitelist', 'file',
    '-f', DEMUXER[format], '-i', input,
    '-map', '0:a:0', '-vn', '-sn', '-dn',
    '-t', String(maxSeconds),
    '-ac', String(AUDIO_FORMAT.channels), '-ar', String(AUDIO_FORMAT.sampleRateHz), '-f', 's16le', '-acodec', 'pcm_s16le',
    '-y', output,
  ];
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => stderr.join('').length < 4000 && stderr.push(d));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? apiError('unavailable', 'the audio decoder (ffmpeg) is not installed on this server') : err),
    );
    child.on('close', resolve);
  });
  if (code !== 0) {
    // ffmpeg's first complaint, without the temporary path (the caller knows which file it sent).
    const reason = stderr.join('').split('\n').map((l) => l.replaceAll(input, 'file').trim()).find(Boolean) ?? `decoder exited with ${code}`;
    throw apiError('unprocessable_content', `file: not decodable as ${format.toUpperCase()} audio (${reason.slice(0, 200)})`);
  }
}
