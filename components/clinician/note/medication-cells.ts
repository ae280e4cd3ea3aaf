import type { MedicationOrder } from '@/lib/contracts/sessions';
import { humanize } from '../format';

type Dosage = MedicationOrder['dosage'];
const said = (d: Dosage): string => d.raw_value || (d.quantity !== null ? `${d.quantity}${d.unit ? ` ${d.unit.toLowerCase()}` : ''}` : '');

/** The order's dose as said, and for a changed order the dose it replaces ("1000 milligrams, was 500 milligrams"). */
export function doseCell(o: Pick<MedicationOrder, 'dosage' | 'status'> & { previous_dosage?: Dosage | null }): string {
  const now = said(o.dosage) || '—';
  const before = o.status === 'CHANGED' && o.previous_dosage ? said(o.previous_dosage) : '';
  return before && before !== now ? `${now}, was ${before}` : now;
}

/** How often, as said, with an as-needed reason; a frequency that is itself "as needed" is not said twice. */
export function frequencyCell(o: Pick<MedicationOrder, 'frequency' | 'as_needed' | 'as_needed_reason'>): string {
  const f = o.frequency.raw_value || (o.frequency.structured_value ? humanize(o.frequency.structured_value) : '—');
  if (!o.as_needed) return f;
  const when = f === '—' || /^(?:as needed|when needed|if needed|as required|prn)$/i.test(f.trim()) ? '' : `${f}, `;
  return `${when}as needed${o.as_needed_reason ? ` for ${o.as_needed_reason}` : ''}`;
}
