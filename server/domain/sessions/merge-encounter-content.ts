import { emptyStructuredData, type ContentResponse, type MedicationOrder, type StructuredData, type SummarySection } from '@/lib/contracts/sessions';

type Diagnosis = StructuredData['diagnoses']['values'][number];
type FormValues = StructuredData['section_structured_values'][number];

function diagnosisKey(d: Diagnosis): string {
  const icd = d.codes.find((c) => c.type === 'ICD10');
  if (icd) return `ICD10:${icd.code.replace(/\./g, '').toUpperCase()}`;
  const first = d.codes[0];
  return first ? `${first.type}:${first.code.toUpperCase()}` : `NOTE:${d.diagnosis_note.trim().toLowerCase()}`;
}

function orderKey(o: MedicationOrder): string {
  const drug = o.medication_code?.type === 'RXCUI' ? `RXCUI:${o.medication_code.code}` : `NAME:${o.drug_name.trim().toLowerCase()}`;
  const dose =
    o.dosage.quantity !== null || o.dosage.unit !== null
      ? `${o.dosage.quantity ?? ''}|${(o.dosage.unit ?? '').toUpperCase()}`
      : (o.dosage.raw_value ?? '').trim().toLowerCase();
  return `${drug}#${dose}`;
}

/** Later items replace earlier ones with the same key, keeping the position the key first took. */
function dedupe<T>(items: T[], key: (t: T) => string): T[] {
  const order: string[] = [];
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (!byKey.has(k)) order.push(k);
    byKey.set(k, item);
  }
  return order.map((k) => byKey.get(k)!);
}

function mergeSections(notes: ContentResponse[]): SummarySection[] {
  const order: string[] = [];
  const byLoinc = new Map<string, SummarySection>();
  for (const note of notes) {
    for (const s of note.summary) {
      const prev = byLoinc.get(s.loinc_code);
      if (!prev) {
        order.push(s.loinc_code);
        byLoinc.set(s.loinc_code, { ...s, source_transcripts: [...s.source_transcripts], ...(s.sentences ? { sentences: [...s.sentences] } : {}) });
        continue;
      }
      const content = [prev.content.trim(), s.content.trim()].filter(Boolean).join('\n\n');
      const sentences = prev.sentences || s.sentences ? [...(prev.sentences ?? []), ...(s.sentences ?? [])] : undefined;
      byLoinc.set(s.loinc_code, {
        ...prev,
        content,
        source_transcripts: [...new Set([...prev.source_transcripts, ...s.source_transcripts])],
        ...(sentences ? { sentences } : {}),
      });
    }
  }
  return order.map((k) => byLoinc.get(k)!);
}

function mergeFormValues(all: FormValues[]): FormValues[] {
  const order: string[] = [];
  const byKey = new Map<string, FormValues>();
  for (const f of all) {
    const k = `${f.loinc}|${f.template_id}`;
    const prev = byKey.get(k);
    if (!prev) {
      order.push(k);
      byKey.set(k, { ...f, values: [...f.values] });
      continue;
    }
    const values = dedupe([...prev.values, ...f.values], (v) => v.id);
    byKey.set(k, { ...prev, values });
  }
  return order.map((k) => byKey.get(k)!);
}

/**
 * The encounter's note from its sessions' notes, in session order: sections with the same LOINC are
 * joined, diagnoses are deduplicated by ICD-10 code, medication orders by RXCUI plus dose, lab and imaging
 * orders by LOINC (or name) and allergies by substance code (or name), with a later
 * session's version of a duplicate replacing the earlier one (it reflects the latest conversation).
 */
export function mergeEncounterContent(notes: ContentResponse[]): ContentResponse {
  const sd = emptyStructuredData();
  sd.diagnoses.values = dedupe(
    notes.flatMap((n) => n.structured_data.diagnoses.values),
    diagnosisKey,
  );
  const values = dedupe(
    notes.flatMap((n) => n.structured_data.orders.medication_orders.values),
    orderKey,
  );
  const valueKeys = new Set(values.map(orderKey));
  sd.orders.medication_orders.values = values;
  sd.orders.medication_orders.partial_values = dedupe(
    notes.flatMap((n) => n.structured_data.orders.medication_orders.partial_values),
    orderKey,
  ).filter((o) => !valueKeys.has(orderKey(o)));
  sd.orders.service_orders.values = dedupe(
    notes.flatMap((n) => n.structured_data.orders.service_orders?.values ?? []),
    (o) => (o.code ? `LOINC:${o.code.code}` : `NAME:${o.name.trim().toLowerCase()}`),
  );
  sd.allergies.values = dedupe(
    notes.flatMap((n) => n.structured_data.allergies?.values ?? []),
    (a) => (a.substance_code ? `${a.substance_code.type}:${a.substance_code.code}` : `NAME:${a.substance.trim().toLowerCase()}`),
  );
  sd.section_structured_values = mergeFormValues(notes.flatMap((n) => n.structured_data.section_structured_values));
  return { summary: mergeSections(notes), structured_data: sd };
}
