import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffAudioFormat } from './sniff-audio-format';
import { decodeAudioFile } from './decode-audio-file';

/** One second of a tone in each accepted container, made by ffmpeg (the decoder the upload uses). */
function encoded(ext: string, codec: string[] = []): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sniff-'));
  try {
    const file = path.join(dir, `tone.${ext}`);
    execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', ...codec, '-y', file]);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CASES: [string, string[], string][] = [
  ['wav', [], 'wav'],
  ['mp3', [], 'mp3'],
  ['m4a', ['-c:a', 'aac'], 'm4a'],
  ['aac', ['-c:a', 'aac', '-f', 'adts'], 'aac'],
  ['webm', ['-c:a', 'libopus'], 'webm'],
  ['ogg', ['-c:a', 'libopus'], 'ogg'],
  ['flac', [], 'flac'],
];

describe('sniffAudioFormat and decodeAudioFile', () => {
  it.each(CASES)('recognises %s by its bytes and decodes it to 16 kHz mono PCM', async (ext, codec, format) => {
    const file = encoded(ext, codec);
    expect(sniffAudioFormat(file.subarray(0, 64))).toBe(format);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decode-'));
    try {
      fs.writeFileSync(path.join(dir, 'in'), file);
      await decodeAudioFile(path.join(dir, 'in'), path.join(dir, 'out.pcm'), format as never, 60);
      const pcm = fs.readFileSync(path.join(dir, 'out.pcm'));
      // About one second at 32 bytes a millisecond (encoders pad a little).
      expect(pcm.length).toBeGreaterThan(30_000);
      expect(pcm.length).toBeLessThan(36_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names nothing it does not accept', () => {
    expect(sniffAudioFormat(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(sniffAudioFormat(Buffer.from('Subjective: cough'))).toBeNull();
    expect(sniffAudioFormat(Buffer.alloc(0))).toBeNull();
  });

  it('answers 422 naming the file when the bytes do not decode', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decode-'));
    try {
      fs.writeFileSync(path.join(dir, 'in'), Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(200, 7)]));
      await expect(decodeAudioFile(path.join(dir, 'in'), path.join(dir, 'out.pcm'), 'flac', 60)).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^file: not decodable as FLAC audio/) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
