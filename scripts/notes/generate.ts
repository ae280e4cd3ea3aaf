/**
 * npm run notes:generate -- --in dialogues.jsonl --out notes.jsonl
 * Input lines {encounter_id, dialogue} (ACI-BENCH format); output lines {encounter_id, note, summary, structured_data}.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../server/config';
import { defaultCodeIndex } from '../../server/codesets/index';
import { createNotesEngine } from '../../server/engines/notes/index';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { noteToText } from '../../server/engines/notes/embedded/index';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const input = arg('in');
const output = arg('out');
if (!input || !output) {
  console.error('usage: npm run notes:generate -- --in dialogues.jsonl --out notes.jsonl [--verbosity BALANCED]');
  process.exit(2);
}
const verbosity = (arg('verbosity') ?? 'BALANCED') as 'CONCISE' | 'BALANCED' | 'DETAILED';
// NOTES_ENGINE and the code sets as the server would read them.
const config = loadConfig();
const engine = createNotesEngine({ ...config.notes, codes: defaultCodeIndex(config.codesetsDir) });
const out = createWriteStream(output);
let n = 0;
for await (const line of createInterface({ input: createReadStream(input) })) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as { encounter_id: string; dialogue: string };
  const result = await engine.generate({
    transcript: dialogueToTranscript(row.dialogue),
    sections: [],
    preferences: { verbosity, sectionFormat: {} },
  });
  out.write(JSON.stringify({ encounter_id: row.encounter_id, note: noteToText(result), summary: result.summary, structured_data: result.structured_data }) + '\n');
  n++;
}
out.end();
console.error(`${n} notes written to ${output} (engine ${engine.name})`);
