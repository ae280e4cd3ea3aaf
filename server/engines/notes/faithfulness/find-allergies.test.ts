import { describe, expect, it } from 'vitest';
import { findAllergies } from './find-allergies';

describe('findAllergies', () => {
  it('names a drug allergy by its RxNorm ingredient', () => {
    expect(findAllergies('i am allergic to penicillin, it gives me a rash').map((a) => a.key)).toEqual(['allergy:penicillin v']);
    expect(findAllergies('allergy to bactrim').map((a) => a.key)).toEqual(['allergy:sulfamethoxazole / trimethoprim']);
  });

  it('names another substance by its stemmed first word', () => {
    expect(findAllergies('she has a shellfish allergy').map((a) => a.key)).toEqual(['allergy:shellfish']);
    expect(findAllergies('allergic to latex and tape').map((a) => a.key)).toEqual(['allergy:latex']);
  });

  it('reads no known allergies as its own fact', () => {
    for (const said of ['no known drug allergies', 'nkda', "i don't have any allergies"]) expect(findAllergies(said).map((a) => a.key)).toEqual(['allergy:none']);
    expect(findAllergies('do you have any allergies')).toEqual([]);
  });
});
