'use client';
import { useState } from 'react';
import { Input, Select } from '@/components/ui';
import type { ServiceOrder } from '@/lib/contracts/sessions';
import type { ServiceOrderEdit } from '@/lib/contracts/structured-data-edits';
import { CodeCombobox } from './CodeCombobox';
import { ItemFormFrame, orNull, type ItemFormProps } from './ItemForm';
import { useCodeSearch, type CodeOption } from './use-structured-edit';

const CATEGORIES = [
  { value: 'LAB', label: 'Lab' },
  { value: 'IMAGING', label: 'Imaging' },
];

/** Add or change a lab or imaging order: a LOINC orderable (or the clinician's words), its kind and when. */
export function ServiceOrderForm({ initial, position, ...frame }: ItemFormProps<ServiceOrderEdit> & { initial?: ServiceOrder }) {
  const search = useCodeSearch();
  const [text, setText] = useState(initial?.name ?? '');
  const [picked, setPicked] = useState<CodeOption | null>(initial?.code ? { value: initial.code.code, label: initial.code.display } : null);
  const [category, setCategory] = useState<ServiceOrderEdit['category']>(initial?.category ?? 'LAB');
  const [timing, setTiming] = useState(initial?.timing ?? '');
  const searchOrderables = search.orderables;
  return (
    <ItemFormFrame
      title={position === null ? 'Add lab or imaging order' : 'Edit lab or imaging order'}
      busy={frame.busy}
      error={frame.error}
      onCancel={frame.onCancel}
      onSubmit={() => void frame.onSave({ name: text.trim(), category, loinc: picked?.value ?? null, timing: orNull(timing) })}
    >
      <CodeCombobox
        label="Order"
        text={text}
        onText={setText}
        picked={picked}
        onPick={(o) => {
          setPicked(o);
          // An orderable knows its kind: a chest x-ray is imaging.
          if (o?.detail?.startsWith('Imaging')) setCategory('IMAGING');
          else if (o?.detail?.startsWith('Lab')) setCategory('LAB');
        }}
        search={searchOrderables}
        required
        hint="Search a lab or imaging order, or type one not in the list."
      />
      <Select label="Kind" options={CATEGORIES} value={category} onChange={(e) => setCategory(e.target.value as ServiceOrderEdit['category'])} />
      <Input label="When" placeholder="e.g. in three months" value={timing} maxLength={200} onChange={(e) => setTiming(e.target.value)} />
    </ItemFormFrame>
  );
}
