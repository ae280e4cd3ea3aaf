'use client';
import { useState } from 'react';
import { Input, Select } from '@/components/ui';
import { DOSAGE_UNIT_CODES, DOSAGE_UNIT_LABELS, FREQUENCY_TYPE_CODES, FREQUENCY_TYPE_INFO, MEDICATION_ORDER_STATUS_CODES } from '@/lib/info/lists';
import type { MedicationOrder } from '@/lib/contracts/sessions';
import type { MedicationOrderEdit } from '@/lib/contracts/structured-data-edits';
import { humanize } from '../format';
import { CodeCombobox } from './CodeCombobox';
import { ItemFormFrame, orNull, type ItemFormProps } from './ItemForm';
import { useCodeSearch, type CodeOption } from './use-structured-edit';

const UNITS = DOSAGE_UNIT_CODES.map((c) => ({ value: c, label: DOSAGE_UNIT_LABELS[c] }));
const FREQUENCIES = FREQUENCY_TYPE_CODES.map((c) => ({ value: c, label: FREQUENCY_TYPE_INFO[c].label }));
const STATUSES = MEDICATION_ORDER_STATUS_CODES.map((c) => ({ value: c, label: humanize(c) }));

/** Add or change a medication order: the drug (RxNorm), dose, frequency, route, status and whether it is taken as needed. */
export function MedicationOrderForm({ initial, position, ...frame }: ItemFormProps<MedicationOrderEdit> & { initial?: MedicationOrder }) {
  const search = useCodeSearch();
  const [text, setText] = useState(initial?.drug_name ?? '');
  const [picked, setPicked] = useState<CodeOption | null>(initial?.medication_code?.type === 'RXCUI' ? { value: initial.medication_code.code, label: initial.drug_name } : null);
  const [dose, setDose] = useState(initial?.dosage.quantity?.toString() ?? '');
  const [unit, setUnit] = useState(initial?.dosage.unit ?? '');
  const [frequency, setFrequency] = useState(initial?.frequency.structured_value ?? '');
  const [route, setRoute] = useState(initial?.route ?? '');
  const [status, setStatus] = useState(initial?.status ?? 'NEW');
  const [asNeeded, setAsNeeded] = useState(initial?.as_needed ?? false);
  const [reason, setReason] = useState(initial?.as_needed_reason ?? '');
  const [localError, setLocalError] = useState<string | null>(null);

  function submit() {
    const quantity = dose.trim() ? Number(dose) : null;
    if (quantity !== null && !(quantity > 0)) return setLocalError('dose_quantity: must be a number greater than 0');
    setLocalError(null);
    void frame.onSave({
      drug_name: text.trim(),
      rxcui: picked?.value ?? null,
      dose_quantity: quantity,
      dose_unit: (unit || null) as MedicationOrderEdit['dose_unit'],
      frequency: (frequency || null) as MedicationOrderEdit['frequency'],
      route: orNull(route),
      status: status as MedicationOrderEdit['status'],
      as_needed: asNeeded,
      as_needed_reason: asNeeded ? orNull(reason) : null,
    });
  }

  return (
    <ItemFormFrame title={position === null ? 'Add medication order' : 'Edit medication order'} busy={frame.busy} error={localError ?? frame.error} onCancel={frame.onCancel} onSubmit={submit}>
      <CodeCombobox label="Drug (RxNorm)" text={text} onText={setText} picked={picked} onPick={setPicked} search={search.rxnorm} required hint="Search by drug name, e.g. metformin." />
      <div className="grid grid-cols-2 gap-2">
        <Input label="Dose" inputMode="decimal" value={dose} onChange={(e) => setDose(e.target.value)} />
        <Select label="Unit" placeholder="No unit" options={UNITS} value={unit} onChange={(e) => setUnit(e.target.value)} />
        <Select label="Frequency" placeholder="Not given" options={FREQUENCIES} value={frequency} onChange={(e) => setFrequency(e.target.value)} />
        <Input label="Route" placeholder="e.g. oral" value={route} maxLength={60} onChange={(e) => setRoute(e.target.value)} />
        <Select label="Status" options={STATUSES} value={status} onChange={(e) => setStatus(e.target.value)} />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={asNeeded} onChange={(e) => setAsNeeded(e.target.checked)} className="h-4 w-4" />
        Take as needed
      </label>
      {asNeeded ? <Input label="As needed for" placeholder="e.g. pain" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} /> : null}
    </ItemFormFrame>
  );
}
