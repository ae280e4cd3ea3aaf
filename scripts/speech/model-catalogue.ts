import type { OfflineFamily, StreamingFamily } from '@/server/engines/speech/sherpa/model-dir';

/**
 * The speech models `npm run speech:models` knows: sherpa-onnx's own ONNX exports, as published in its
 * `asr-models` release. Each archive is pinned by SHA-256 once someone with internet has checked it
 * against the publisher's listing: `sha256: null` means not yet pinned, and download then refuses the
 * archive unless told --accept-unpinned (it prints the hash to pin). Sizes are the archive's bytes where
 * pinned. WER figures are the authors' own, on the test set named, with where they published them.
 */
export interface CatalogueModel {
  name: string;
  family: OfflineFamily | StreamingFamily;
  /** Streaming models are an add-on, extracted into streaming/ beside an offline model. */
  streaming?: boolean;
  archive: string;
  sha256: string | null;
  bytes: number | null;
  licence: string;
  languages: string[];
  /** The authors' published WER (%), the test set, and where. */
  wer: { value: number | null; set: string; source: string };
  /**
   * Approximate size of the int8 files the engine loads, where the archive is not pinned: Whisper tiny.en and
   * Parakeet from sherpa-onnx's model pages, the others estimated from parameter counts.
   */
  approxMb?: number;
}

const RELEASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';
const WHISPER = 'Radford et al. 2022, "Robust Speech Recognition via Large-Scale Weak Supervision", appendix D (greedy)';
const MOONSHINE = 'Jeffries et al. 2024, "Moonshine: Speech Recognition for Live Transcription and Voice Commands", arXiv 2410.15608';

export const CATALOGUE: CatalogueModel[] = [
  {
    name: 'whisper-tiny.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-tiny.en.tar.bz2`, sha256: null, bytes: null, approxMb: 103,
    licence: 'MIT', languages: ['en'], wer: { value: 5.6, set: 'LibriSpeech test-clean', source: WHISPER },
  },
  {
    name: 'whisper-base.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-base.en.tar.bz2`, sha256: null, bytes: null, approxMb: 200,
    licence: 'MIT', languages: ['en'], wer: { value: 4.2, set: 'LibriSpeech test-clean', source: WHISPER },
  },
  {
    name: 'whisper-small.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-small.en.tar.bz2`, sha256: null, bytes: null, approxMb: 600,
    licence: 'MIT', languages: ['en'], wer: { value: 3.0, set: 'LibriSpeech test-clean', source: WHISPER },
  },
  {
    name: 'moonshine-tiny-en-int8', family: 'moonshine', archive: `${RELEASE}/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`, sha256: null, bytes: null, approxMb: 120,
    licence: 'MIT', languages: ['en'], wer: { value: 4.52, set: 'LibriSpeech test-clean', source: MOONSHINE },
  },
  {
    name: 'moonshine-base-en-int8', family: 'moonshine', archive: `${RELEASE}/sherpa-onnx-moonshine-base-en-int8.tar.bz2`, sha256: null, bytes: null, approxMb: 250,
    licence: 'MIT', languages: ['en'], wer: { value: 3.23, set: 'LibriSpeech test-clean', source: MOONSHINE },
  },
  {
    name: 'parakeet-tdt-0.6b-v2-int8', family: 'nemo_transducer', archive: `${RELEASE}/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`, sha256: null, bytes: null, approxMb: 630,
    licence: 'CC-BY-4.0', languages: ['en'],
    wer: { value: 6.05, set: 'Hugging Face Open ASR Leaderboard average (LibriSpeech test-clean 1.69)', source: 'NVIDIA model card nvidia/parakeet-tdt-0.6b-v2 (2025)' },
  },
  {
    name: 'nemo-ctc-en-conformer-small', family: 'nemo_ctc', archive: `${RELEASE}/sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2`, sha256: null, bytes: null, approxMb: 80,
    licence: 'CC-BY-4.0', languages: ['en'], wer: { value: null, set: 'LibriSpeech test-clean', source: 'NVIDIA NGC card stt_en_conformer_ctc_small (figure not copied here: not checked from this machine)' },
  },
  {
    name: 'sense-voice-2024-07-17', family: 'sense_voice', archive: `${RELEASE}/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17.tar.bz2`, sha256: null, bytes: null, approxMb: 160,
    licence: 'FunASR model licence (attribution; not OSI)', languages: ['zh', 'en', 'ja', 'ko', 'yue'],
    wer: { value: null, set: 'LibriSpeech, Common Voice, AISHELL', source: 'FunAudioLLM team 2024, arXiv 2407.04051 (figures not copied here: not checked from this machine)' },
  },
  {
    name: 'streaming-zipformer-en-2023-06-26', family: 'zipformer_transducer', streaming: true,
    archive: `${RELEASE}/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`, sha256: null, bytes: null, approxMb: 300,
    licence: 'Apache-2.0', languages: ['en'], wer: { value: null, set: 'LibriSpeech test-clean', source: 'icefall librispeech zipformer RESULTS.md (streaming; figure not copied here)' },
  },
];

export function findModel(name: string): CatalogueModel | undefined {
  return CATALOGUE.find((m) => m.name === name);
}
