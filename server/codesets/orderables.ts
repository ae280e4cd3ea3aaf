/**
 * The curated table of common lab and imaging orderables, coded with LOINC (issue 29 item 2). The table and
 * its spoken aliases are written by this project; the codes and their names are LOINC's (see
 * server/codesets/README.md for source and licence). An order whose words match no row is kept as text.
 * Aliases are matched as whole words on the tokenised sentence, longest first, so "cbc with differential"
 * beats "cbc".
 */
export interface Orderable {
  /** LOINC code. */
  code: string;
  /** LOINC short display, as the FHIR ServiceRequest carries it. */
  display: string;
  category: 'LAB' | 'IMAGING';
  /** How clinicians say it; the first is the name the structured data gives the order. */
  aliases: string[];
}

export const ORDERABLES: readonly Orderable[] = [
  // Panels
  { code: '51990-0', display: 'Basic metabolic panel - Blood', category: 'LAB', aliases: ['basic metabolic panel', 'bmp', 'basic metabolic profile', 'basic panel', 'chem 7', 'chem-7'] },
  { code: '24323-8', display: 'Comprehensive metabolic 2000 panel - Serum or Plasma', category: 'LAB', aliases: ['comprehensive metabolic panel', 'cmp', 'comprehensive metabolic profile', 'comprehensive panel', 'chem 14', 'chem-14'] },
  { code: '57021-8', display: 'CBC W Auto Differential panel - Blood', category: 'LAB', aliases: ['cbc with differential', 'cbc with diff', 'complete blood count with differential'] },
  { code: '58410-2', display: 'CBC panel - Blood by Automated count', category: 'LAB', aliases: ['complete blood count', 'cbc', 'blood count', 'cbc panel'] },
  { code: '24331-1', display: 'Lipid 1996 panel - Serum or Plasma', category: 'LAB', aliases: ['lipid panel', 'lipid profile', 'lipids', 'cholesterol panel', 'fasting lipid panel', 'cholesterol levels', 'cholesterol level'] },
  { code: '24325-3', display: 'Hepatic function 2000 panel - Serum or Plasma', category: 'LAB', aliases: ['liver function tests', 'liver function test', 'lfts', 'lft', 'liver panel', 'hepatic function panel', 'liver enzymes', 'liver enzyme'] },
  { code: '24362-6', display: 'Renal function 2000 panel - Serum or Plasma', category: 'LAB', aliases: ['renal function panel', 'renal panel', 'kidney function tests', 'kidney function test', 'kidney function', 'renal function'] },
  { code: '50190-8', display: 'Iron and Iron binding capacity panel - Serum or Plasma', category: 'LAB', aliases: ['iron panel', 'iron studies', 'iron levels', 'iron level'] },
  { code: '24356-8', display: 'Urinalysis complete panel - Urine', category: 'LAB', aliases: ['urinalysis', 'ua', 'urine analysis', 'urine test', 'urine sample'] },
  // Single tests
  { code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', category: 'LAB', aliases: ['hemoglobin a1c', 'a1c', 'hba1c', 'a1c level', 'glycated hemoglobin', 'sugar average'] },
  { code: '3016-3', display: 'Thyrotropin [Units/volume] in Serum or Plasma', category: 'LAB', aliases: ['tsh', 'thyroid stimulating hormone', 'thyroid panel', 'thyroid function tests', 'thyroid function test', 'thyroid levels', 'thyroid level', 'thyroid labs', 'thyroid test'] },
  { code: '3024-7', display: 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['free t4'] },
  { code: '2857-1', display: 'Prostate specific Ag [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['psa', 'prostate specific antigen'] },
  { code: '1989-3', display: '25-Hydroxyvitamin D3+25-Hydroxyvitamin D2 [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['vitamin d level', 'vitamin d levels', '25 hydroxy vitamin d'] },
  { code: '2132-9', display: 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['vitamin b12 level', 'b12 level'] },
  { code: '2284-8', display: 'Folate [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['folate level'] },
  { code: '2276-4', display: 'Ferritin [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['ferritin', 'ferritin level'] },
  { code: '19123-9', display: 'Magnesium [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['magnesium level'] },
  { code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', category: 'LAB', aliases: ['potassium level'] },
  { code: '2951-2', display: 'Sodium [Moles/volume] in Serum or Plasma', category: 'LAB', aliases: ['sodium level'] },
  { code: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['creatinine', 'creatinine level'] },
  { code: '3094-0', display: 'Urea nitrogen [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['bun', 'blood urea nitrogen'] },
  { code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['fasting glucose', 'blood glucose', 'fasting blood sugar', 'glucose level'] },
  { code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', category: 'LAB', aliases: ['hemoglobin level', 'hgb'] },
  { code: '777-3', display: 'Platelets [#/volume] in Blood by Automated count', category: 'LAB', aliases: ['platelet count'] },
  { code: '5902-2', display: 'Prothrombin time (PT)', category: 'LAB', aliases: ['prothrombin time'] },
  { code: '6301-6', display: 'INR in Platelet poor plasma by Coagulation assay', category: 'LAB', aliases: ['inr', 'pt inr', 'pt/inr'] },
  { code: '30341-2', display: 'Erythrocyte sedimentation rate', category: 'LAB', aliases: ['sed rate', 'esr', 'erythrocyte sedimentation rate', 'sedimentation rate'] },
  { code: '1988-5', display: 'C reactive protein [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['c-reactive protein', 'c reactive protein', 'crp'] },
  { code: '3084-1', display: 'Urate [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['uric acid level', 'uric acid'] },
  { code: '30934-4', display: 'Natriuretic peptide B [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['bnp', 'brain natriuretic peptide'] },
  { code: '33762-6', display: 'Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['nt-probnp', 'nt pro bnp', 'pro bnp', 'probnp'] },
  { code: '10839-9', display: 'Troponin I.cardiac [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['troponin', 'troponins', 'troponin level'] },
  { code: '3040-3', display: 'Lipase [Enzymatic activity/volume] in Serum or Plasma', category: 'LAB', aliases: ['lipase', 'lipase level'] },
  { code: '1798-8', display: 'Amylase [Enzymatic activity/volume] in Serum or Plasma', category: 'LAB', aliases: ['amylase'] },
  { code: '9318-7', display: 'Albumin/Creatinine [Mass Ratio] in Urine', category: 'LAB', aliases: ['urine microalbumin', 'microalbumin', 'urine albumin to creatinine ratio', 'albumin creatinine ratio', 'urine albumin', 'urine microalbumin to creatinine ratio'] },
  { code: '2986-8', display: 'Testosterone [Mass/volume] in Serum or Plasma', category: 'LAB', aliases: ['testosterone level', 'testosterone levels'] },
  { code: '11572-5', display: 'Rheumatoid factor [Units/volume] in Serum or Plasma', category: 'LAB', aliases: ['rheumatoid factor'] },
  { code: '2106-3', display: 'Choriogonadotropin (pregnancy test) [Presence] in Urine', category: 'LAB', aliases: ['urine pregnancy test', 'pregnancy test'] },
  { code: '16128-1', display: 'Hepatitis C virus Ab [Presence] in Serum', category: 'LAB', aliases: ['hepatitis c antibody', 'hepatitis c screening', 'hep c screening', 'hepatitis c test'] },
  { code: '630-4', display: 'Bacteria identified in Urine by Culture', category: 'LAB', aliases: ['urine culture'] },
  { code: '600-7', display: 'Bacteria identified in Blood by Culture', category: 'LAB', aliases: ['blood cultures', 'blood culture'] },
  { code: '94500-6', display: 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory specimen by NAA with probe detection', category: 'LAB', aliases: ['covid test', 'covid pcr', 'covid-19 test', 'covid swab'] },
  { code: '29771-3', display: 'Hemoglobin.gastrointestinal.lower [Presence] in Stool by Immunoassay', category: 'LAB', aliases: ['fit test', 'fecal immunochemical test', 'stool test for blood'] },
  // Imaging
  { code: '36643-5', display: 'XR Chest 2 Views', category: 'IMAGING', aliases: ['chest x-ray', 'chest x ray', 'chest xray', 'chest radiograph', 'cxr', 'x-ray of your chest', 'x-ray of the chest', 'x-ray of her chest', 'x-ray of his chest'] },
  { code: '34552-0', display: 'Cardiac 2D echo panel', category: 'IMAGING', aliases: ['echocardiogram', 'echo', '2d echo', 'cardiac echo', 'echocardiography', 'ultrasound of your heart', 'ultrasound of the heart'] },
  { code: '24802-1', display: 'MR Knee', category: 'IMAGING', aliases: ['mri of the knee', 'mri of your knee', 'mri of her knee', 'mri of his knee', 'knee mri', 'mri of the right knee', 'mri of the left knee', 'mri of your right knee', 'mri of your left knee', 'right knee mri', 'left knee mri'] },
  { code: '24590-2', display: 'MR Brain', category: 'IMAGING', aliases: ['mri of the brain', 'mri of your brain', 'brain mri', 'mri brain', 'mri of the head', 'mri of your head', 'head mri'] },
  { code: '24558-9', display: 'CT Head WO contrast', category: 'IMAGING', aliases: ['ct of the head', 'ct of your head', 'head ct', 'ct head', 'cat scan of your head', 'ct scan of the head', 'ct scan of your head'] },
];

/**
 * Words that make an unmatched phrase an imaging order kept as text ("an x-ray of your right knee"): the kind
 * of order is known even when no row of the table names it.
 */
export const IMAGING_WORDS = /\b(x-?rays?|x ray|radiographs?|mri|mris|ct scan|cat scan|ct|ultrasound|sonogram|echocardiogram|echo|mammogram|dexa scan|dexa|bone density scan|bone density|ct angiogram|pet scan|nuclear stress test)\b/i;
