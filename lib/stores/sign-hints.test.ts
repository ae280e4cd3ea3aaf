import { describe, expect, it } from 'vitest';
import { hintKey, useSignHints } from './sign-hints';

describe('the review\'s "edit, then sign again" hints', () => {
  it('are kept per visit and section, and cleared for one visit only once it is signed', () => {
    const h = () => useSignHints.getState();
    h().add('a', '51847-2', 'To resolve before signing: “x”.');
    h().add('a', '10164-2', 'To resolve before signing: “y”.');
    h().add('b', '51847-2', 'To resolve before signing: “z”.');
    expect(h().bySection[hintKey('a', '51847-2')]).toContain('“x”');
    h().clear('a');
    expect(Object.keys(h().bySection)).toEqual([hintKey('b', '51847-2')]);
  });
});
