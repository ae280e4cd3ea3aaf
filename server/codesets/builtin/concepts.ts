/**
 * Hand-written clinical vocabulary of the built-in code set: each ICD-10-CM code with the phrases
 * clinicians and patients use for it in conversation, kept by body system in ./concepts/. Descriptions and
 * HCC categories are not written here; scripts/notes/build-builtin.ts copies them from the official files
 * into icd10.generated.ts so they cannot drift (scripts/notes/build-builtin.test.ts checks it). Order
 * matters only for ties: more specific phrases win by length, so "type 2 diabetes with neuropathy" beats
 * "diabetes".
 */
import { INTERNAL_MEDICINE } from './concepts/internal-medicine';
import { MUSCULOSKELETAL_NEURO_PSYCH } from './concepts/musculoskeletal-neuro-psych';
import { SKIN_SENSES_GENERAL } from './concepts/skin-senses-general';

export const ICD10_CONCEPTS: Array<[code: string, ...terms: string[]]> = [...INTERNAL_MEDICINE, ...MUSCULOSKELETAL_NEURO_PSYCH, ...SKIN_SENSES_GENERAL];
