import { notFound } from '@/lib/errors';
import { emptyStructuredData, type StructuredData } from '@/lib/contracts/sessions';
import type { StructuredKind } from '@/lib/contracts/structured-data-edits';

/**
 * The stored structured data read whole, with the lists added since it was stored (allergies, service
 * orders) as empty, so an edit writes back every part it did not touch unchanged.
 */
export function readStructuredData(stored: unknown): StructuredData {
  const sd = (stored ?? {}) as Partial<StructuredData>;
  const empty = emptyStructuredData();
  return {
    ...sd,
    diagnoses: { values: [...(sd.diagnoses?.values ?? [])] },
    orders: {
      ...sd.orders,
      medication_orders: {
        values: [...(sd.orders?.medication_orders?.values ?? [])],
        partial_values: [...(sd.orders?.medication_orders?.partial_values ?? [])],
      },
      service_orders: { values: [...(sd.orders?.service_orders?.values ?? empty.orders.service_orders.values)] },
    },
    allergies: { values: [...(sd.allergies?.values ?? empty.allergies.values)] },
    section_structured_values: sd.section_structured_values ?? [],
  };
}

/** Where an item at a position of a kind's list is stored. Medication orders list values, then partial_values, as the content does. */
export interface Slot {
  list: unknown[];
  index: number;
}

export function locateItem(sd: StructuredData, kind: StructuredKind, position: number): Slot | null {
  if (kind === 'medication_orders') {
    const { values, partial_values } = sd.orders.medication_orders;
    if (position < values.length) return { list: values, index: position };
    const p = position - values.length;
    return p < partial_values.length ? { list: partial_values, index: p } : null;
  }
  const list = listOf(sd, kind);
  return position < list.length ? { list, index: position } : null;
}

/** The list a new (or clinician-completed) item goes into: medication orders the clinician wrote are complete orders. */
export function listOf(sd: StructuredData, kind: StructuredKind): unknown[] {
  switch (kind) {
    case 'diagnoses':
      return sd.diagnoses.values;
    case 'medication_orders':
      return sd.orders.medication_orders.values;
    case 'allergies':
      return sd.allergies.values;
    case 'service_orders':
      return sd.orders.service_orders.values;
  }
}

/** Stored items carry their sources, never the evidence computed from them on read. */
export function withoutEvidence<T>(item: T): T {
  if (item && typeof item === 'object' && 'evidence' in item) {
    const { evidence: _e, ...rest } = item as T & { evidence?: unknown };
    return rest as T;
  }
  return item;
}

const NAMES: Record<StructuredKind, string> = { diagnoses: 'diagnosis', medication_orders: 'medication order', allergies: 'allergy', service_orders: 'lab or imaging order' };

/** 404 naming the position when the list has no item there. */
export function noItemAt(kind: StructuredKind, position: number) {
  return notFound(`position: the note has no ${NAMES[kind]} at position ${position}`);
}
