'use client';
import { useState } from 'react';
import { Input, Select } from '@/components/ui';
import type { Allergy } from '@/lib/contracts/sessions';
import type { AllergyEdit } from '@/lib/contracts/structured-data-edits';
import { CodeCombobox } from './CodeCombobox';
import { ItemFormFrame, orNull, type ItemFormProps } from './ItemForm';
import { useCodeSearch, type CodeOption } from './use-structured-edit';

const VERIFICATION = [
  { value: 'CONFIRMED', label: 'Confirmed' },
  { value: 'REPORTED', label: 'Reported by the patient' },
];

/** Add or change an allergy: the substance (a drug class or RxNorm ingredient, or words), the reaction, confirmed or reported. */
export function AllergyForm({ initial, position, ...frame }: ItemFormProps<AllergyEdit> & { initial?: Allergy }) {
  const search = useCodeSearch();
  const code = initial?.substance_code;
  const [text, setText] = useState(initial?.substance ?? '');
  const [picked, setPicked] = useState<CodeOption | null>(code ? { value: `${code.type}:${code.code}`, label: code.display ?? initial!.substance } : null);
  const [reaction, setReaction] = useState(initial?.reaction ?? '');
  const [verification, setVerification] = useState<AllergyEdit['verification']>(initial?.verification ?? 'CONFIRMED');
  return (
    <ItemFormFrame
      title={position === null ? 'Add allergy' : 'Edit allergy'}
      busy={frame.busy}
      error={frame.error}
      onCancel={frame.onCancel}
      onSubmit={() => {
        const [type, value] = picked ? (picked.value.split(':') as ['RXCUI' | 'DRUG_CLASS', string]) : [];
        void frame.onSave({
          substance: text.trim(),
          substance_code: type && value ? { type, code: value } : null,
          reaction: orNull(reaction),
          verification,
        });
      }}
    >
      <CodeCombobox label="Substance" text={text} onText={setText} picked={picked} onPick={setPicked} search={search.substances} required hint="Search a drug or drug class, or type a substance not in the list." />
      <Input label="Reaction" value={reaction} maxLength={200} onChange={(e) => setReaction(e.target.value)} />
      <Select label="Verification" options={VERIFICATION} value={verification} onChange={(e) => setVerification(e.target.value as AllergyEdit['verification'])} />
    </ItemFormFrame>
  );
}
