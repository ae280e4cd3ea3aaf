import { describe, expect, it } from 'vitest';
import { builtinCodeIndex } from '@/server/codesets/index';
import { checkIcd10, checkRxNorm } from './openai-codes';

const codes = builtinCodeIndex();

describe('checkIcd10', () => {
  it('keeps a code the code set has when the description names its category', () => {
    expect(checkIcd10(codes, 'Type 2 diabetes mellitus', 'E11.65')).toMatchObject({ outcome: 'kept', value: { code: 'E11.65' } });
  });

  it('replaces a nonexistent code with the match for the description', () => {
    expect(checkIcd10(codes, 'Type 2 diabetes mellitus', 'E11.999')).toEqual({ outcome: 'replaced', value: { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' } });
  });

  it('replaces a real code of another category than the description names', () => {
    expect(checkIcd10(codes, 'Essential hypertension', 'E11.9')).toMatchObject({ outcome: 'replaced', value: { code: 'I10' } });
  });

  it('drops a nonexistent code whose description the code index cannot match', () => {
    expect(checkIcd10(codes, 'Zorblax syndrome', 'Q99.99')).toEqual({ outcome: 'dropped', value: undefined });
  });

  it('without a lexicon match, keeps a real code only when its own description shares a word with the model\'s', () => {
    expect(checkIcd10(codes, 'Zorblax syndrome', 'I10')).toEqual({ outcome: 'dropped', value: undefined });
    expect(checkIcd10(codes, 'essential (primary)', 'I10')).toMatchObject({ outcome: 'kept', value: { code: 'I10' } });
  });
});

describe('checkRxNorm', () => {
  it('resolves the ingredient and keeps its code', () => {
    expect(checkRxNorm(codes, 'Metformin', '6809')).toMatchObject({ outcome: 'kept', value: { ingredient: 'metformin', concept: { rxcui: '6809' } } });
  });

  it('keeps a clinical drug of the same ingredient', () => {
    const scd = codes.rxClinicalDrugs('metformin')[0];
    expect(checkRxNorm(codes, 'metformin', scd.rxcui)).toMatchObject({ outcome: 'kept', value: { concept: { rxcui: scd.rxcui } } });
  });

  it('replaces a code that is not this drug\'s with the ingredient\'s', () => {
    expect(checkRxNorm(codes, 'metformin', '99999999')).toMatchObject({ outcome: 'replaced', value: { concept: { rxcui: '6809' } } });
  });

  it('drops a drug the code set does not know', () => {
    expect(checkRxNorm(codes, 'zorblaxamine', '12345')).toEqual({ outcome: 'dropped', value: undefined });
  });
});
