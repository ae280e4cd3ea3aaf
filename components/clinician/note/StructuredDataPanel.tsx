'use client';
import { useState, type ReactNode } from 'react';
import type { StructuredData } from '@/lib/contracts/sessions';
import type { EditBodies, StructuredKind } from '@/lib/contracts/structured-data-edits';
import { formatDuration, humanize } from '../format';
import { doseCell, frequencyCell } from './medication-cells';
import type { EvidenceSentence } from './evidence';
import { AllergyList, ServiceOrderList } from './AllergyAndOrderLists';
import { AllergyForm } from './AllergyForm';
import { DiagnosisForm } from './DiagnosisForm';
import { MedicationOrderForm } from './MedicationOrderForm';
import { ServiceOrderForm } from './ServiceOrderForm';
import { ItemActions, StructuredSection, type SectionEditing } from './StructuredSection';
import { StructuredDataChanges } from './StructuredDataChanges';
import { useStructuredEdit } from './use-structured-edit';

export interface CodedEvidenceProps {
  /** From codedEvidence(data): keys dx:<i> and rx:<i>. */
  items: EvidenceSentence[];
  selected: string | null;
  onSelect: (key: string | null) => void;
}

/** A toggle that shows a coded item's transcript lines, or says that none supports it. */
function EvidenceToggle({ item, ev }: { item: EvidenceSentence | undefined; ev: CodedEvidenceProps }) {
  if (!item) return null;
  if (!item.evidence) return <span className="mt-1 block text-xs text-amber-900">No evidence in the transcript</span>;
  const on = ev.selected === item.key;
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => ev.onSelect(on ? null : item.key)}
      className={`mt-1 rounded px-1 text-left text-xs text-blue-800 underline hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 ${on ? 'bg-amber-100' : ''}`}
    >
      Evidence for {item.text}: {formatDuration(item.evidence.start_ms)}, {item.evidence.transcript_ids.length} line{item.evidence.transcript_ids.length === 1 ? '' : 's'}
    </button>
  );
}

interface Editing {
  kind: StructuredKind;
  position: number | null;
}

/**
 * The note's coded data: diagnoses, medication orders, allergies and lab or imaging orders. With a session and
 * an unsigned note the clinician adds, changes and removes each (one form open at a time); a signed note shows
 * them read-only until it is amended.
 */
export function StructuredDataPanel({ data, evidence, sessionId, locked = false }: { data: StructuredData; evidence?: CodedEvidenceProps; sessionId?: string; locked?: boolean }) {
  const coded = new Map((evidence?.items ?? []).map((c) => [c.key, c]));
  const dx = data.diagnoses.values;
  const meds = [...data.orders.medication_orders.values, ...data.orders.medication_orders.partial_values];
  const edit = useStructuredEdit(sessionId ?? '');
  const [open, setOpen] = useState<Editing | null>(null);
  const editable = !!sessionId && !locked;

  const start = (kind: StructuredKind, position: number | null) => {
    edit.clearError();
    setOpen({ kind, position });
  };
  const editing = (kind: StructuredKind): SectionEditing => ({
    editable,
    busy: edit.busy,
    onEdit: (p) => start(kind, p),
    onRemove: (p) => {
      setOpen(null);
      void edit.remove(kind, p);
    },
  });
  const isOpen = (kind: StructuredKind, position: number | null) => editable && open?.kind === kind && open.position === position;
  function form<K extends StructuredKind>(kind: K, position: number | null, render: (p: { position: number | null; busy: boolean; error: string | null; onSave: (b: EditBodies[K]) => Promise<boolean>; onCancel: () => void }) => ReactNode) {
    if (!isOpen(kind, position)) return null;
    const onSave = async (body: EditBodies[K]) => {
      const ok = await edit.save(kind, position, body);
      if (ok) setOpen(null);
      return ok;
    };
    return render({ position, busy: edit.busy, error: edit.error, onSave, onCancel: () => setOpen(null) });
  }

  return (
    <section aria-labelledby="sd-title" className="rounded-lg border border-slate-200 bg-white p-3" data-testid="structured-data">
      <h2 id="sd-title" className="text-lg font-semibold">
        Structured data
      </h2>
      {sessionId && locked ? <p className="text-xs text-slate-700">Signed: amend the note to change its coded data.</p> : null}
      {edit.error && !open ? (
        <p role="alert" className="mt-1 text-xs font-medium text-red-700">
          {edit.error}
        </p>
      ) : null}
      <StructuredSection id="sd-dx" title="Diagnoses" addLabel="Add diagnosis" editable={editable} onAdd={() => start('diagnoses', null)} addForm={form('diagnoses', null, (p) => <DiagnosisForm {...p} />)}>
        {dx.length === 0 ? (
          <p className="text-sm text-slate-700">No diagnoses were coded.</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-2" data-testid="diagnoses">
            {dx.map((d, i) => {
              const icd = d.codes.filter((c) => c.type !== 'HCC');
              const hcc = d.codes.filter((c) => c.type === 'HCC');
              const editForm = form('diagnoses', i, (p) => <DiagnosisForm {...p} initial={d} />);
              return (
                <li key={i} className="rounded-md bg-slate-50 p-2 text-sm">
                  {editForm ?? (
                    <>
                      {icd.map((c) => (
                        <p key={c.code}>
                          <span className="font-mono font-semibold">{c.code}</span> <span>{c.description}</span>{' '}
                          <span className="text-xs text-slate-600">{c.type === 'ICD10' ? 'ICD-10-CM' : c.type}</span>
                        </p>
                      ))}
                      {hcc.map((c) => (
                        <p key={c.code} className="text-xs text-slate-700">
                          HCC {c.code}: {c.description}
                        </p>
                      ))}
                      {d.laterality_indicator ? <p className="text-xs text-slate-700">Laterality: {humanize(d.laterality_indicator)}</p> : null}
                      {d.diagnosis_note ? <p className="mt-1 text-xs text-slate-700">{d.diagnosis_note}</p> : null}
                      {evidence ? <EvidenceToggle item={coded.get(`dx:${i}`)} ev={evidence} /> : null}
                      <ItemActions what={`diagnosis ${icd[0]?.code ?? i + 1}`} position={i} editing={editing('diagnoses')} />
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </StructuredSection>
      <StructuredSection id="sd-rx" title="Medications" addLabel="Add medication" editable={editable} onAdd={() => start('medication_orders', null)} addForm={form('medication_orders', null, (p) => <MedicationOrderForm {...p} />)}>
        {meds.length === 0 ? (
          <p className="text-sm text-slate-700">No medication orders were found.</p>
        ) : (
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Medication orders">
            <table className="mt-1 w-full text-sm" data-testid="medications">
              <caption className="sr-only">Medication orders</caption>
              <thead className="text-left text-xs text-slate-700">
                <tr>
                  <th scope="col" className="py-1 pr-2">
                    Drug
                  </th>
                  <th scope="col" className="py-1 pr-2">
                    Dose
                  </th>
                  <th scope="col" className="py-1 pr-2">
                    Frequency
                  </th>
                  <th scope="col" className="py-1">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody>
                {meds.map((o, i) => (
                  <tr key={i} className="border-t border-slate-100 align-top">
                    <td className="py-1 pr-2">
                      <span className="font-medium">{o.drug_name}</span>
                      {o.medication_code ? (
                        <span className="block text-xs text-slate-600">
                          {o.medication_code.type} {o.medication_code.code}
                        </span>
                      ) : null}
                      {o.route ? <span className="block text-xs text-slate-600">{o.route}</span> : null}
                      {evidence ? <EvidenceToggle item={coded.get(`rx:${i}`)} ev={evidence} /> : null}
                      <ItemActions what={`medication ${o.drug_name}`} position={i} editing={editing('medication_orders')} />
                    </td>
                    <td className="py-1 pr-2">{doseCell(o)}</td>
                    <td className="py-1 pr-2">{frequencyCell(o)}</td>
                    <td className="py-1">{humanize(o.status)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {meds.map((o, i) => form('medication_orders', i, (p) => <MedicationOrderForm key={i} {...p} initial={o} />))}
      </StructuredSection>
      <StructuredSection id="sd-allergies" title="Allergies" addLabel="Add allergy" editable={editable} onAdd={() => start('allergies', null)} addForm={form('allergies', null, (p) => <AllergyForm {...p} />)}>
        <AllergyList items={data.allergies?.values ?? []} editing={editing('allergies')} form={(a, i) => form('allergies', i, (p) => <AllergyForm {...p} initial={a} />)} />
      </StructuredSection>
      <StructuredSection id="sd-orders" title="Lab and imaging orders" addLabel="Add lab or imaging order" editable={editable} onAdd={() => start('service_orders', null)} addForm={form('service_orders', null, (p) => <ServiceOrderForm {...p} />)}>
        <ServiceOrderList items={data.orders.service_orders?.values ?? []} editing={editing('service_orders')} form={(o, i) => form('service_orders', i, (p) => <ServiceOrderForm {...p} initial={o} />)} />
      </StructuredSection>
      {sessionId ? <StructuredDataChanges sessionId={sessionId} /> : null}
    </section>
  );
}
