import { describe, expect, it } from 'vitest';
import { splitDivisions } from './divisions';

describe('splitDivisions (ACI-BENCH note divisions)', () => {
  it('files each section by its heading, wherever it sits in the note', () => {
    const d = splitDivisions('CHIEF COMPLAINT\n\nKnee pain.\n\nPHYSICAL EXAM\n\nMSK:\nTender.\n\nRESULTS\n\nX-ray normal.\n\nASSESSMENT AND PLAN\n\nRest.\n\nMEDICATIONS\n\nIbuprofen.');
    expect(d.subjective).toBe('Knee pain.\n\nIbuprofen.');
    expect(d.objective_exam).toBe('MSK:\nTender.');
    expect(d.objective_results).toBe('X-ray normal.');
    expect(d.assessment_and_plan).toBe('Rest.');
  });
  it('counts VITALS as exam and INSTRUCTIONS as plan, and leaves a division empty when the note has none', () => {
    const d = splitDivisions('VITALS\n\nBP 120/80.\n\nPLAN\n\nDiet.\n\nINSTRUCTIONS\n\nReturn in 2 weeks.');
    expect(d.objective_exam).toBe('BP 120/80.');
    expect(d.assessment_and_plan).toBe('Diet.\n\nReturn in 2 weeks.');
    expect(d.objective_results).toBe('');
    expect(d.subjective).toBe('');
  });
});
