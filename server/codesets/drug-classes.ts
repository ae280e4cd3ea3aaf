/**
 * Drug classes allergies are recorded against (issue 29 item 1), coded with WHO ATC class codes: a patient
 * "allergic to penicillin" or "to sulfa drugs" reacts to the class, which RxNorm has no ingredient for. The
 * table and its aliases are this project's; the codes and names are the WHO Collaborating Centre's ATC
 * classification (see server/codesets/README.md). A substance that is neither a class here nor an RxNorm
 * ingredient is kept as text.
 */
export interface DrugClass {
  /** ATC code of the class. */
  code: string;
  display: string;
  /** How clinicians and patients say it, matched as whole words, longest first. */
  aliases: string[];
}

export const ATC_SYSTEM = 'http://www.whocc.no/atc';

export const DRUG_CLASSES: readonly DrugClass[] = [
  { code: 'J01C', display: 'Penicillins (beta-lactam antibacterials, penicillins)', aliases: ['penicillin', 'penicillins', 'pcn'] },
  { code: 'J01E', display: 'Sulfonamides and trimethoprim', aliases: ['sulfa', 'sulfa drugs', 'sulfa drug', 'sulfonamides', 'sulfonamide', 'sulfa antibiotics'] },
  { code: 'J01FA', display: 'Macrolides', aliases: ['macrolides', 'macrolide antibiotics'] },
  { code: 'J01MA', display: 'Fluoroquinolones', aliases: ['fluoroquinolones', 'quinolones', 'quinolone antibiotics'] },
  { code: 'J01AA', display: 'Tetracyclines', aliases: ['tetracyclines', 'tetracycline antibiotics'] },
  { code: 'J01G', display: 'Aminoglycoside antibacterials', aliases: ['aminoglycosides'] },
  { code: 'M01A', display: 'Anti-inflammatory and antirheumatic products, non-steroids (NSAIDs)', aliases: ['nsaids', 'nsaid', 'anti-inflammatories', 'anti inflammatories', 'non-steroidal anti-inflammatories'] },
  { code: 'N02A', display: 'Opioids', aliases: ['opioids', 'opiates', 'narcotics', 'narcotic pain medicine', 'narcotic pain medication'] },
  { code: 'C09A', display: 'ACE inhibitors, plain', aliases: ['ace inhibitors', 'ace inhibitor'] },
  { code: 'C10AA', display: 'HMG CoA reductase inhibitors (statins)', aliases: ['statins', 'statin drugs'] },
  { code: 'V08A', display: 'X-ray contrast media, iodinated', aliases: ['contrast dye', 'iv contrast', 'contrast', 'iodinated contrast', 'ct contrast', 'iodine contrast'] },
];
