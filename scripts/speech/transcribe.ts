/**
 * Transcribes a WAV file of any sample rate and channel count.
 * Usage: npm run transcribe -- <file.wav> [--engine embedded|openai|none] [--json] [--no-speakers]
 */
import fs from 'node:fs';
import { decodeWav, toPcm16Mono16k } from '../../server/engines/speech/audio.js';
import { createSpeechEngine, speechConfigFromEnv, type SpeechEngineName } from '../../server/engines/speech/index.js';
import { assignSpeakerRoles } from '../../server/engines/speech/speakers.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--engine');
if (!file || args.includes('--help')) {
  console.error('usage: npm run transcribe -- <file.wav> [--engine embedded|openai|none] [--json] [--no-speakers]');
  process.exit(file ? 0 : 2);
}
const ei = args.indexOf('--engine');
const config = speechConfigFromEnv(process.env);
if (ei >= 0) config.engine = args[ei + 1] as SpeechEngineName;

const audio = decodeWav(fs.readFileSync(file));
const pcm = toPcm16Mono16k(audio);
const engine = createSpeechEngine(config);
try {
  let segments = await engine.transcribe(pcm);
  if (!args.includes('--no-speakers')) segments = assignSpeakerRoles(segments, pcm);
  if (args.includes('--json')) {
    const input = { file, sampleRate: audio.sampleRate, channels: audio.channels.length, durationMs: Math.round((pcm.length / 2 / SAMPLE_RATE_HZ) * 1000) };
    console.log(JSON.stringify({ engine: engine.name, input, segments }, null, 2));
  } else {
    for (const s of segments) console.log(s.speaker && s.speaker !== 'UNKNOWN' ? `${s.speaker}: ${s.text}` : s.text);
  }
} finally {
  await engine.close();
}
