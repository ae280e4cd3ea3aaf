import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract-facts';
import { misfiled } from './misfiled';
import type { FactResult } from './types';

const results = (text: string, reason?: FactResult['reason']): FactResult[] =>
  extractFacts(text).map((fact) => ({ fact, supported: !reason, ...(reason ? { reason } : {}), evidence: [] }));

describe('misfiled', () => {
  it('flags a medication in the physical exam (issue 27: the acetaminophen)', () => {
    expect(misfiled({ loinc: '29545-1', title: 'PHYSICAL EXAMINATION' }, results('Acetaminophen 500 mg every 6 hours as needed.'))).toBe('medication-in-exam');
    expect(misfiled({ title: 'Physical Exam' }, results('Tylenol 500 mg as needed.'))).toBe('medication-in-exam');
  });

  it('flags an allergy or its reaction among the findings', () => {
    expect(misfiled({ loinc: '10187-3', title: 'REVIEW OF SYSTEMS' }, results('Endorses rash.', 'allergy-reaction-as-finding'))).toBe('allergy-in-findings');
    expect(misfiled({ loinc: '29545-1', title: 'PHYSICAL EXAMINATION' }, results('Allergic to penicillin.'))).toBe('allergy-in-findings');
  });

  it('leaves the same facts where they belong', () => {
    expect(misfiled({ loinc: '10160-0', title: 'MEDICATIONS' }, results('Acetaminophen 500 mg every 6 hours as needed.'))).toBeUndefined();
    expect(misfiled({ loinc: '48765-2', title: 'ALLERGIES' }, results('Allergic to penicillin.'))).toBeUndefined();
    expect(misfiled({ loinc: '10187-3', title: 'REVIEW OF SYSTEMS' }, results('Endorses rash.'))).toBeUndefined();
  });
});
