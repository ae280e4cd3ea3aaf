import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conditionName } from './plain-language';

/** Descriptions as the official code set words them, read from the file the service imports. */
const ICD = new Map(
  fs
    .readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/codesets/icd10cm-codes-2026.txt'), 'utf8')
    .split(/\r?\n/)
    .map((line) => [line.slice(0, 8).trim(), line.slice(8).trim()] as [string, string]),
);
const named = (code: string) => conditionName(ICD.get(code)!);

describe('a condition as the after-visit summary names it', () => {
  it('drops what only coding needs and keeps the condition, its side and its site', () => {
    // A recorded visit's summary said "We found: unilateral primary osteoarthritis, right knee."
    expect(named('M1711')).toBe('Osteoarthritis of the right knee');
    expect(named('E119')).toBe('Type 2 diabetes');
    expect(named('E1165')).toBe('Type 2 diabetes with high blood sugar');
    expect(named('I10')).toBe('High blood pressure');
    expect(named('E785')).toBe('High cholesterol');
    expect(named('J45909')).toBe('Asthma');
    expect(named('J4540')).toBe('Moderate persistent asthma');
    expect(named('S93401A')).toBe('Sprain of ligament of the right ankle');
    expect(named('S52501A')).toBe('Fracture of the lower end of the right radius');
    expect(named('K219')).toBe('Acid reflux');
    expect(named('N390')).toBe('Bladder infection');
    expect(named('G43909')).toBe('Migraine');
    expect(named('H6691')).toBe('Middle ear infection of the right ear');
    expect(named('M25561')).toBe('Pain in the right knee');
    expect(named('J441')).toBe('COPD, a long-term lung disease with a flare-up');
    expect(named('I4891')).toBe('Atrial fibrillation');
    expect(named('M170')).toBe('Osteoarthritis of both knees');
  });

  it('says condition words in the plain words of the sourced lexicon (plain-lexicon.ts)', () => {
    expect(named('R000')).toBe('Fast heartbeat');
    expect(named('R001')).toBe('Slow heartbeat');
    expect(named('E039')).toBe('Low thyroid');
    expect(named('R319')).toBe('Blood in the urine');
    expect(named('R300')).toBe('Pain when passing urine');
    expect(named('G4700')).toBe('Trouble sleeping');
    expect(named('M7910')).toBe('Muscle pain');
    expect(named('E1140')).toBe('Type 2 diabetes with diabetic nerve damage');
    expect(named('M5416')).toBe('Pinched nerve, lumbar region');
    expect(named('S8001XA')).toBe('Bruise of the right knee');
    expect(named('M810')).toBe('Age-related thin bones');
    // The browser trial's summary said "We found: dysphagia" for trouble swallowing.
    expect(named('R1310')).toBe('Trouble swallowing');
    expect(named('L509')).toBe('Hives');
    expect(named('J029')).toBe('Acute sore throat');
    // Its other entries would misread a code's description, so they are not used for conditions.
    expect(named('J209')).toBe('Acute bronchitis');
    expect(named('F329')).toBe('Major depressive disorder, single episode');
  });

  it('drops the whole list after "without", and a site or part left unspecified', () => {
    // It said "Dementia, psychotic disturbance, mood disturbance, and anxiety": the very things the code rules out.
    expect(named('F0390')).toBe('Dementia');
    expect(named('F03A0')).toBe('Dementia, mild');
    // A qualifier after the "without" that is not in its list stays.
    expect(named('K35210')).toBe('Acute appendicitis with generalized peritonitis, with abscess');
    expect(named('K279')).toBe('Peptic ulcer');
    expect(named('K5792')).toBe('Diverticulitis of intestine');
    expect(named('K4090')).toBe('Inguinal hernia');
    expect(named('M75101')).toBe('Rotator cuff tear or rupture of the right shoulder');
  });

  it('never leaves a coding qualifier in any name it gives over the whole code set', () => {
    for (const [code, description] of ICD) {
      if (!code) continue;
      const name = conditionName(description);
      expect(name, code).not.toMatch(/\b(?:unspecified|initial encounter|subsequent encounter|not elsewhere classified|not specified as)\b/i);
      expect(name.length, code).toBeGreaterThan(2);
    }
  });
});
