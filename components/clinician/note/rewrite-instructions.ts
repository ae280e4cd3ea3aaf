import { RewriteInstruction } from '@/lib/contracts/rewrite';

export type Instruction = (typeof RewriteInstruction.options)[number];

const LABELS: Record<Instruction, string> = {
  CONCISE: 'Concise',
  VERBOSE: 'Verbose',
  PATIENT_FRIENDLY: 'Patient-friendly',
};

/** The rewrite contract's instructions in its order, with the menu's labels. */
export const INSTRUCTIONS = RewriteInstruction.options.map((value) => ({ value, label: LABELS[value] }));

export const instructionLabel = (i: Instruction | undefined) => (i ? LABELS[i] : '');
