// Loads the configured models in a child process and decodes a second of quiet noise: sherpa-onnx ends the
// whole process on a model it cannot use (missing metadata, bad tokens, an ONNX Runtime error), so the
// server asks a child first and reports the child's words instead of dying. Input: JSON on argv[2].
'use strict';
const sherpa = require('sherpa-onnx-node');

const { offline, online, vad, sampleRate } = JSON.parse(process.argv[2]);
const step = (what) => process.stderr.write(`probe: ${what}\n`);
let seed = 1;
const noise = Float32Array.from({ length: sampleRate }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.002);

step(`loading ${offline.label}`);
const rec = new sherpa.OfflineRecognizer(offline.config);
const s = rec.createStream();
s.acceptWaveform({ samples: noise, sampleRate });
rec.decode(s);
rec.getResult(s);
if (online) {
  step(`loading ${online.label}`);
  const orec = new sherpa.OnlineRecognizer(online.config);
  const os = orec.createStream();
  os.acceptWaveform({ samples: noise, sampleRate });
  while (orec.isReady(os)) orec.decode(os);
  orec.getResult(os);
}
step(`loading ${vad.label}`);
const v = new sherpa.Vad(vad.config, 2);
v.acceptWaveform(noise);
v.flush();
process.stdout.write('ok\n');
