import { describe, expect, it } from 'vitest';
import { insertAtCursor } from './insert-at-cursor';

describe('insertAtCursor', () => {
  it('inserts at the cursor, spaced from the words either side, and moves the cursor past the phrase', () => {
    const first = insertAtCursor('Cough for two weeks. Afebrile.', 20, 'chest hurts when coughing');
    expect(first).toEqual({ text: 'Cough for two weeks. chest hurts when coughing Afebrile.', caret: 46 });
    const next = insertAtCursor(first.text, first.caret, 'worse at night');
    expect(next.text).toBe('Cough for two weeks. chest hurts when coughing worse at night Afebrile.');
  });

  it('fills an empty section and clamps a cursor past the end', () => {
    expect(insertAtCursor('', 0, 'no complaints')).toEqual({ text: 'no complaints', caret: 13 });
    expect(insertAtCursor('Stable.', 99, 'continue')).toEqual({ text: 'Stable. continue', caret: 16 });
    expect(insertAtCursor('Stable.\n', 8, 'continue')).toEqual({ text: 'Stable.\ncontinue', caret: 16 });
  });
});
