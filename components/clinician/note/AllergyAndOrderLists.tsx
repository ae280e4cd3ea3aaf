'use client';
/** The allergies and the lab and imaging orders of the structured-data panel, each with its edit form in place. */
import type { ReactNode } from 'react';
import type { Allergy, ServiceOrder } from '@/lib/contracts/sessions';
import { ItemActions, type SectionEditing } from './StructuredSection';

export function AllergyList({ items, editing, form }: { items: Allergy[]; editing: SectionEditing; form: (a: Allergy, i: number) => ReactNode }) {
  if (items.length === 0) return <p className="text-sm text-slate-700">No allergies were recorded.</p>;
  return (
    <ul className="mt-1 flex flex-col gap-2" data-testid="allergies">
      {items.map((a, i) => (
        <li key={i} className="rounded-md bg-slate-50 p-2 text-sm">
          {form(a, i) ?? (
            <>
              <p>
                <span className="font-semibold">{a.substance}</span>
                {a.reaction ? <span>: {a.reaction}</span> : null}
              </p>
              <p className="text-xs text-slate-600">
                {a.substance_code ? `${a.substance_code.type === 'RXCUI' ? 'RxNorm' : 'Drug class'} ${a.substance_code.code}` : 'Not coded'} ·{' '}
                {a.verification === 'CONFIRMED' ? 'Confirmed' : 'Reported'}
              </p>
              <ItemActions what={`allergy ${a.substance}`} position={i} editing={editing} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function ServiceOrderList({ items, editing, form }: { items: ServiceOrder[]; editing: SectionEditing; form: (o: ServiceOrder, i: number) => ReactNode }) {
  if (items.length === 0) return <p className="text-sm text-slate-700">No lab or imaging orders were found.</p>;
  return (
    <ul className="mt-1 flex flex-col gap-2" data-testid="service-orders">
      {items.map((o, i) => (
        <li key={i} className="rounded-md bg-slate-50 p-2 text-sm">
          {form(o, i) ?? (
            <>
              <p>
                <span className="font-semibold">{o.name}</span> <span className="text-xs text-slate-600">{o.category === 'LAB' ? 'Lab' : 'Imaging'}</span>
              </p>
              <p className="text-xs text-slate-600">
                {o.code ? `LOINC ${o.code.code} ${o.code.display}` : 'Not coded'}
                {o.timing ? ` · ${o.timing}` : ''}
              </p>
              <ItemActions what={`order ${o.name}`} position={i} editing={editing} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
