'use client';
import { useState } from 'react';
import { Input, Select } from '@/components/ui';
import type { StructuredData } from '@/lib/contracts/sessions';
import type { DiagnosisEdit } from '@/lib/contracts/structured-data-edits';
import { CodeCombobox } from './CodeCombobox';
import { ItemFormFrame, type ItemFormProps } from './ItemForm';
import { useCodeSearch, type CodeOption } from './use-structured-edit';

type Diagnosis = StructuredData['diagnoses']['values'][number];

const LATERALITY = [
  { value: 'LEFT', label: 'Left' },
  { value: 'RIGHT', label: 'Right' },
  { value: 'BILATERAL', label: 'Bilateral' },
];

/** Add or change a diagnosis: an ICD-10-CM code found by words or code, laterality and a note. */
export function DiagnosisForm({ initial, position, ...frame }: ItemFormProps<DiagnosisEdit> & { initial?: Diagnosis }) {
  const search = useCodeSearch();
  const icd = initial?.codes.find((c) => c.type !== 'HCC');
  const [text, setText] = useState(icd?.description ?? '');
  const [picked, setPicked] = useState<CodeOption | null>(icd ? { value: icd.code, label: icd.description, detail: icd.code } : null);
  const [laterality, setLaterality] = useState<string>(initial?.laterality_indicator ?? '');
  const [note, setNote] = useState(initial?.diagnosis_note ?? '');
  return (
    <ItemFormFrame
      title={position === null ? 'Add diagnosis' : 'Edit diagnosis'}
      busy={frame.busy}
      error={frame.error}
      onCancel={frame.onCancel}
      onSubmit={() =>
        void frame.onSave({
          // A code typed straight in (E11.9) is sent as it is; the API says when it is not a code.
          code: picked?.value ?? text.trim(),
          laterality_indicator: (laterality || null) as DiagnosisEdit['laterality_indicator'],
          diagnosis_note: note.trim(),
        })
      }
    >
      <CodeCombobox label="Diagnosis (ICD-10-CM)" text={text} onText={setText} picked={picked} onPick={setPicked} search={search.icd10} required hint="Search by words or code, e.g. type 2 diabetes or E11.9." />
      <Select label="Laterality" placeholder="Not applicable" options={LATERALITY} value={laterality} onChange={(e) => setLaterality(e.target.value)} />
      <Input label="Note" value={note} maxLength={1000} onChange={(e) => setNote(e.target.value)} />
    </ItemFormFrame>
  );
}
