import { describe, expect, it } from 'vitest';
import { referenceAllergies, referenceOrders } from './coded-facts';

describe('reference coded facts', () => {
  it('reads allergies from the ALLERGIES section and "allergic to", skipping none and seasonal', () => {
    expect([...referenceAllergies('HPI\n\nShe is allergic to penicillin.\n\nALLERGIES\n\nCodeine causes nausea.\nShellfish.\n\nPLAN\n\nRest.')]).toEqual(['RXCUI:2670', 'NAME:shellfish', 'DRUG_CLASS:J01C']);
    expect([...referenceAllergies('ALLERGIES\n\nNo known allergies.\n')]).toEqual([]);
  });

  it('reads orders from the assessment and plan lines that order, not those that report results', () => {
    const note = 'HPI\n\nHer A1c was ordered last year.\n\nASSESSMENT AND PLAN\n\nI have ordered a BMP and a chest x-ray. Her lipid panel was normal.';
    expect([...referenceOrders(note)].sort()).toEqual(['36643-5', '51990-0']);
  });
});
