import { PhraseMatcher } from '../embedded/lexicon';
import { matchTokens } from './match-tokens';

/**
 * Labs and imaging a note may order or report, each group with the names said for it. Source: the test
 * words the embedded engine already files by (TESTING in embedded/plan.ts, RESULT_CUE in embedded/exam.ts),
 * grouped with their spelled-out and abbreviated forms as LOINC's common names give them. Generic words
 * ("labs", "blood work", "imaging", "radiographic") form their own groups; the checker accepts any named
 * test of the class for them, never the reverse ("labs" said does not support "a BMP" written).
 */
export const TEST_GROUPS: Array<[group: string, ...names: string[]]> = [
  ['x-ray', 'x-ray', 'x-rays', 'xray', 'xrays', 'x ray', 'radiograph', 'radiographs'],
  ['imaging', 'imaging', 'radiographic', 'radiology', 'films', 'scan', 'scans'],
  ['mri', 'mri', 'magnetic resonance imaging'],
  ['ct', 'ct', 'ct scan', 'cat scan', 'computed tomography'],
  ['ultrasound', 'ultrasound', 'sonogram', 'doppler'],
  ['echocardiogram', 'echo', 'echocardiogram', 'echocardiography'],
  ['ekg', 'ekg', 'ecg', 'electrocardiogram'],
  ['stress test', 'stress test', 'nuclear stress test'],
  ['a1c', 'a1c', 'hemoglobin a1c', 'hba1c', 'glycated hemoglobin'],
  ['bmp', 'bmp', 'basic metabolic panel', 'basic panel', 'chem 7'],
  ['cmp', 'cmp', 'comprehensive metabolic panel', 'metabolic panel'],
  ['cbc', 'cbc', 'complete blood count', 'blood count'],
  ['lipid panel', 'lipid panel', 'lipids', 'lipid profile', 'cholesterol panel', 'cholesterol levels'],
  ['tsh', 'tsh', 'thyroid stimulating hormone', 'thyroid panel', 'thyroid function', 'thyroid levels', 'thyroid level'],
  ['urinalysis', 'urinalysis', 'ua', 'urine test', 'urine sample', 'urine culture'],
  ['psa', 'psa', 'prostate specific antigen'],
  ['vitamin d level', 'vitamin d level', 'vitamin d levels'],
  ['creatinine', 'creatinine', 'kidney function', 'renal function', 'gfr', 'egfr'],
  ['culture', 'culture', 'cultures', 'blood culture', 'strep test', 'throat culture'],
  ['biopsy', 'biopsy'],
  ['colonoscopy', 'colonoscopy'],
  ['endoscopy', 'endoscopy', 'egd', 'upper endoscopy'],
  ['mammogram', 'mammogram', 'mammography'],
  ['pulmonary function test', 'pft', 'pfts', 'pulmonary function test', 'pulmonary function tests', 'spirometry'],
  ['sleep study', 'sleep study', 'polysomnography'],
  ['catheterization', 'cardiac catheterization', 'heart cath', 'catheterization', 'cath'],
  ['nerve conduction', 'nerve conduction study', 'emg'],
  ['labs', 'labs', 'lab work', 'lab', 'blood work', 'bloodwork', 'blood test', 'blood tests'],
];

const testMatcher = new PhraseMatcher(TEST_GROUPS.flatMap(([group, ...names]) => names.map((n) => [group, n] as [string, string])));

/** The tests a lower-cased sentence names, by group, with the words said. */
export function findTests(text: string): Array<{ group: string; said: string }> {
  const tokens = matchTokens(text);
  return testMatcher.match(tokens).map((m) => ({ group: m.id, said: tokens.slice(m.start, m.end).join(' ') }));
}
