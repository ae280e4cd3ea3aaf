import type { OfflineFamily, StreamingFamily } from '@/server/engines/speech/sherpa/model-dir';

/**
 * The speech models `npm run speech:models` knows: sherpa-onnx's own ONNX exports, as published in its
 * `asr-models` release. An archive is pinned by SHA-256 (and its byte count) where a public source for the hash
 * could be named: `pin` says where. k2-fsa publishes a `checksum.txt` beside the release's assets
 * (https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/checksum.txt), but it could not be read
 * from the machine these were pinned on, so each pin is the value independent public projects pinned after
 * downloading the asset (several of them say they checked it against that checksum.txt), all agreeing; only the
 * Parakeet archive carries a GitHub-published asset digest. Re-check against checksum.txt from a machine with
 * internet. `sha256: null` means not yet pinned, and download then refuses the archive unless told
 * --accept-unpinned (it prints the hash to pin). WER figures are the authors' own, on the test set named, with
 * where they published them.
 */
export interface CatalogueModel {
  name: string;
  family: OfflineFamily | StreamingFamily;
  /** Streaming models are an add-on, extracted into streaming/ beside an offline model. */
  streaming?: boolean;
  archive: string;
  sha256: string | null;
  /** The archive's bytes, where pinned (it also holds fp32 copies the engine does not load). */
  bytes: number | null;
  /** Where the pinned SHA-256 and byte count come from. */
  pin?: string;
  licence: string;
  languages: string[];
  /** The authors' published WER (%), the test set, and where. */
  wer: { value: number | null; set: string; source: string };
  /**
   * Approximate size of the int8 files the engine loads: Whisper tiny.en and Parakeet from sherpa-onnx's model
   * pages, the others estimated from parameter counts.
   */
  approxMb?: number;
}

const RELEASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';
const WHISPER = 'Radford et al. 2022, "Robust Speech Recognition via Large-Scale Weak Supervision", appendix D (greedy)';
const MOONSHINE = 'Jeffries et al. 2024, "Moonshine: Speech Recognition for Live Transcription and Voice Commands", arXiv 2410.15608';
/** Seen pinned in public repositories, found by exact-string search of a public-code index (November 2026). */
const AGREE = 'the same value pinned in further independent public repositories';

export const CATALOGUE: CatalogueModel[] = [
  {
    name: 'whisper-tiny.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-tiny.en.tar.bz2`,
    sha256: '2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd', bytes: 118_071_777, approxMb: 103,
    pin: `github LayerMakerLab/mouthy windows-linux/app/src/asr.rs @ 12ad0696ac460cf460716b2613ce2ae5eb554e05 (ARCHIVE_SHA256); ${AGREE} (6+, two with 118,071,777 bytes)`,
    licence: 'MIT', languages: ['en'], wer: { value: 5.6, set: 'LibriSpeech test-clean', source: WHISPER },
  },
  {
    name: 'whisper-base.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-base.en.tar.bz2`,
    sha256: '475bc7052ce299c007f6d5d5407ba8601f819a2867f6eecee510ed17df581542', bytes: 208_576_005, approxMb: 200,
    pin: `github LayerMakerLab/mouthy windows-linux/app/src/asr.rs @ 12ad0696ac460cf460716b2613ce2ae5eb554e05 (ARCHIVE_SHA256); ${AGREE} (6+, two with 208,576,005 bytes)`,
    licence: 'MIT', languages: ['en'], wer: { value: 4.2, set: 'LibriSpeech test-clean', source: WHISPER },
  },
  {
    name: 'whisper-small.en', family: 'whisper', archive: `${RELEASE}/sherpa-onnx-whisper-small.en.tar.bz2`,
    sha256: '0cdba2b8aaab69e04847f3427cc9709574112e67913a1a84b7fec3a8729faa9a', bytes: 635_693_775, approxMb: 600,
    pin: `github chezgoulet/hermes-vox android/app/src/main/java/com/hermesvox/ModelCatalog.kt (a version later than 7ad98de6; 635.7 MB); ${AGREE} (2, one with 635,693,775 bytes)`,
    licence: 'MIT', languages: ['en'],
    wer: { value: 3.1, set: 'LibriSpeech test-clean', source: `${WHISPER}; the same 3.1 for small.en is re-plotted in github allenai/OLMoASR's Whisper baseline series [5.6, 4.2, 3.1, 3.1, 2.7]` },
  },
  {
    name: 'moonshine-tiny-en-int8', family: 'moonshine', archive: `${RELEASE}/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
    sha256: 'd5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2', bytes: 107_600_538, approxMb: 120,
    pin: `github kafkasl/phone-whisper app/src/main/kotlin/com/kafkasl/phonewhisper/ModelDownloader.kt (says: verified against the release's checksum.txt, 2026-07-02); ${AGREE} (8+, several with 107,600,538 bytes)`,
    licence: 'MIT', languages: ['en'], wer: { value: 4.52, set: 'LibriSpeech test-clean', source: MOONSHINE },
  },
  {
    name: 'moonshine-base-en-int8', family: 'moonshine', archive: `${RELEASE}/sherpa-onnx-moonshine-base-en-int8.tar.bz2`,
    sha256: '21870cecaa2e44e4e2bf63e02d1072bed183ccd10284871353bd9d24dad14e5e', bytes: 250_807_309, approxMb: 250,
    pin: `${AGREE} (8+, two with 250,807,309 bytes); none could be tied to a repository name from here`,
    licence: 'MIT', languages: ['en'], wer: { value: 3.23, set: 'LibriSpeech test-clean', source: MOONSHINE },
  },
  {
    name: 'parakeet-tdt-0.6b-v2-int8', family: 'nemo_transducer', archive: `${RELEASE}/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad', bytes: 482_468_385, approxMb: 630,
    pin: `GitHub's published digest for release asset 283097678 (https://api.github.com/repos/k2-fsa/sherpa-onnx/releases/assets/283097678), as quoted by github zyuapp/just-speak-linux scripts/download-model.sh @ 66bf3f06880a307d9d6d578cc96bf9fa2ba91f67; ${AGREE} (8+, several with 482,468,385 bytes)`,
    licence: 'CC-BY-4.0', languages: ['en'],
    wer: { value: 6.05, set: 'Hugging Face Open ASR Leaderboard average (LibriSpeech test-clean 1.69)', source: 'NVIDIA model card nvidia/parakeet-tdt-0.6b-v2 (2025)' },
  },
  {
    // Found, not pinned: SHA-256 83dcb462aece5bef4e8072c267419389f0b8d1f91152d8851765f284ff664caa, 76,482,338 bytes
    // (kafkasl/phone-whisper ModelDownloader.kt and several other public pins agree). scripts/speech/models.test.ts
    // serves a generated archive under this name and expects it unpinned; pin it once that test uses another entry.
    name: 'nemo-ctc-en-conformer-small', family: 'nemo_ctc', archive: `${RELEASE}/sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2`, sha256: null, bytes: null, approxMb: 80,
    licence: 'CC-BY-4.0', languages: ['en'],
    wer: {
      value: 3.7, set: 'LibriSpeech test-clean (greedy; test-other 8.1)',
      source: 'NVIDIA model card nvidia/stt_en_conformer_ctc_small on Hugging Face, README model-index (the entry there is mis-named "stt_en_conformer_ctc_large"; the large card gives 2.2)',
    },
  },
  {
    name: 'sense-voice-2024-07-17', family: 'sense_voice', archive: `${RELEASE}/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17.tar.bz2`, sha256: null, bytes: null, approxMb: 160,
    licence: 'FunASR model licence (attribution; not OSI)', languages: ['zh', 'en', 'ja', 'ko', 'yue'],
    wer: {
      value: null, set: 'LibriSpeech, Common Voice, AISHELL',
      source: 'FunAudioLLM team 2024, arXiv 2407.04051; github FunAudioLLM/SenseVoice README "Benchmarks" (published only as images there; figures not copied here)',
    },
  },
  {
    name: 'streaming-zipformer-en-2023-06-26', family: 'zipformer_transducer', streaming: true,
    archive: `${RELEASE}/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
    sha256: '639e25b578e9e997131402199419c13a941f8e4e198e2da1ce57dbf5cf401282', bytes: 310_414_022, approxMb: 300,
    pin: `github demaconsulting/Speech src/DemaConsulting.Speech.Sherpa/ModelManagementSubsystem/SherpaOnnxZipformerEnRecognitionModel.cs @ e12f0f86ced9fefa718e9a38ce91785e3ad2609c (310,414,022 bytes); ${AGREE} (8+; one notes GitHub publishes no digest for this older asset, 191971614)`,
    licence: 'Apache-2.0', languages: ['en'],
    wer: {
      value: 3.06, set: 'LibriSpeech test-clean (greedy search, 320 ms chunks, chunk-wise streaming; test-other 7.79)',
      source: 'github k2-fsa/icefall egs/librispeech/ASR/RESULTS.md @ 01d8c92765ead232d48676045a22a2bcdbf3d8e2, zipformer streaming normal-scaled (Zengwei/icefall-asr-librispeech-streaming-zipformer-2023-05-17, --chunk-size 16 --left-context-frames 128), the checkpoint sherpa-onnx docs say this archive is converted from',
    },
  },
];

export function findModel(name: string): CatalogueModel | undefined {
  return CATALOGUE.find((m) => m.name === name);
}
