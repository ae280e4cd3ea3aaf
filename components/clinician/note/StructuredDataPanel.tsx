import type { MedicationOrder, StructuredData } from '@/lib/contracts/sessions';
import { formatDuration, humanize } from '../format';
import type { EvidenceSentence } from './evidence';

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

function dose(o: MedicationOrder): string {
  if (o.dosage.raw_value) return o.dosage.raw_value;
  if (o.dosage.quantity !== null) return `${o.dosage.quantity}${o.dosage.unit ? ` ${o.dosage.unit.toLowerCase()}` : ''}`;
  return '—';
}

function frequency(o: MedicationOrder): string {
  return o.frequency.raw_value || (o.frequency.structured_value ? humanize(o.frequency.structured_value) : '—');
}

export function StructuredDataPanel({ data, evidence }: { data: StructuredData; evidence?: CodedEvidenceProps }) {
  const coded = new Map((evidence?.items ?? []).map((c) => [c.key, c]));
  const dx = data.diagnoses.values;
  const meds = [...data.orders.medication_orders.values, ...data.orders.medication_orders.partial_values];
  return (
    <section aria-labelledby="sd-title" className="rounded-lg border border-slate-200 bg-white p-3" data-testid="structured-data">
      <h2 id="sd-title" className="text-lg font-semibold">
        Structured data
      </h2>
      <h3 className="mt-3 text-sm font-semibold text-slate-800">Diagnoses</h3>
      {dx.length === 0 ? (
        <p className="text-sm text-slate-700">No diagnoses were coded.</p>
      ) : (
        <ul className="mt-1 flex flex-col gap-2" data-testid="diagnoses">
          {dx.map((d, i) => {
            const icd = d.codes.filter((c) => c.type !== 'HCC');
            const hcc = d.codes.filter((c) => c.type === 'HCC');
            return (
              <li key={i} className="rounded-md bg-slate-50 p-2 text-sm">
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
              </li>
            );
          })}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-800">Medications</h3>
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
                  </td>
                  <td className="py-1 pr-2">{dose(o)}</td>
                  <td className="py-1 pr-2">{frequency(o)}</td>
                  <td className="py-1">{humanize(o.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
