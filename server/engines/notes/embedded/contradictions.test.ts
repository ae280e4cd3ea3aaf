/**
 * Issue 27 item 4: no contradiction between the note text and the coded orders, on every note of ACI-BENCH
 * valid and of train's held-out fold (written from the gold dialogue). A dose in the medication list or the
 * plan must be the dose of the drug's new or changed order, unless the sentence names the change
 * ("from 10 mg to 20 mg"); the checker's contradictsOrder decides. Skips when the data is not present.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut } from '@/bench/notes/folds';
import { contradictsOrder } from '../faithfulness/contradicts-order';
import { extractFacts } from '../faithfulness/extract-facts';
import { noteSentences } from '../faithfulness/note-sentences';
import { dialogueToTranscript } from './dialogue';
import { EmbeddedNotesEngine } from './index';

const dir = path.resolve(__dirname, '../../../../../shared/data/aci-bench');
const read = (split: string) => readFileSync(path.join(dir, `${split}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string });
const present = existsSync(path.join(dir, 'valid.jsonl')) && existsSync(path.join(dir, 'train.jsonl'));

describe.skipIf(!present)('note text against coded orders (ACI-BENCH valid and held-out fold)', () => {
  it('has no dose in the medication list or plan that contradicts a coded order', () => {
    const rows = [...read('valid'), ...read('train').filter((_r, i) => isHeldOut(i))];
    expect(rows.length).toBe(33);
    const engine = new EmbeddedNotesEngine();
    const found: string[] = [];
    let checked = 0;
    for (const row of rows) {
      const note = engine.generateSync({ transcript: dialogueToTranscript(row.dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } });
      const orders = [...note.structured_data.orders.medication_orders.values, ...note.structured_data.orders.medication_orders.partial_values];
      for (const s of noteSentences(note)) {
        const facts = extractFacts(s.text);
        for (const f of facts) {
          if (f.kind === 'dose') checked++;
          if (contradictsOrder(f, facts, { loinc: s.loinc, title: s.section }, orders)) found.push(`${row.encounter_id} [${s.section}] ${s.text}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
