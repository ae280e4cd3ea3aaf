import type { Allergy } from '@/lib/contracts/sessions';
import type { CodeIndex } from '../../codesets/index';
import { DRUG_CLASSES } from './code-tables';

export interface SubstanceLookup {
  find(type: 'RXCUI' | 'DRUG_CLASS', code: string): NonNullable<Allergy['substance_code']> | undefined;
}

/** Allergy substances: RxNorm concepts of the code sets, and the drug classes allergies are recorded against. */
export function substanceLookup(codes: CodeIndex): SubstanceLookup {
  return {
    find(type, code) {
      if (type === 'RXCUI') {
        const c = codes.rxByCui(code);
        return c ? { code: c.rxcui, type, display: c.name } : undefined;
      }
      const cls = DRUG_CLASSES.find((d) => d.code === code);
      return cls ? { code: cls.code, type, display: cls.display } : undefined;
    },
  };
}
