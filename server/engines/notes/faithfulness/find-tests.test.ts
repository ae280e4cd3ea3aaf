import { describe, expect, it } from 'vitest';
import { findTests } from './find-tests';

describe('findTests', () => {
  it('reads a test by any of its names', () => {
    expect(findTests('check a basic metabolic panel').map((t) => t.group)).toEqual(['bmp']);
    expect(findTests('order a bmp and a chest x-ray').map((t) => t.group)).toEqual(['bmp', 'x-ray']);
    expect(findTests('your hemoglobin a1c was 7.2').map((t) => t.group)).toEqual(['a1c']);
    expect(findTests('we will get a cat scan and an ekg').map((t) => t.group)).toEqual(['ct', 'ekg']);
  });

  it('keeps generic words in their own groups', () => {
    expect(findTests('we will order some blood work').map((t) => t.group)).toEqual(['labs']);
    expect(findTests('radiographic findings').map((t) => t.group)).toEqual(['imaging']);
  });
});
