'use client';
/** Saving the clinician's changes to a note's structured data, and the code searches its forms use. */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import type { ContentResponse } from '@/lib/contracts/sessions';
import type { EditBodies, StructuredDataEditResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import * as routes from '@/lib/contracts/routes/structured-data';
import { callAsClinician } from '@/lib/hooks/clinician-call';
import { keys } from '@/lib/hooks/sessions';
import { workflowKeys } from '@/lib/hooks/workflow';
import { structuredHistoryKey } from './StructuredDataChanges';

const ROUTES = {
  diagnoses: { add: routes.addDiagnosis, update: routes.updateDiagnosis, remove: routes.removeDiagnosis },
  medication_orders: { add: routes.addMedicationOrder, update: routes.updateMedicationOrder, remove: routes.removeMedicationOrder },
  allergies: { add: routes.addAllergy, update: routes.updateAllergy, remove: routes.removeAllergy },
  service_orders: { add: routes.addServiceOrder, update: routes.updateServiceOrder, remove: routes.removeServiceOrder },
} as const;

export type SaveItem = <K extends StructuredKind>(kind: K, position: number | null, body: EditBodies[K]) => Promise<boolean>;

/**
 * save / remove one item; the answer (the whole structured data) goes into the note's cached content, and the
 * review, visit summary and history are fetched again since they read it. A refusal (a code not in the code
 * sets, a signed note) is kept as `error`, naming the field as the API does.
 */
export function useStructuredEdit(sessionId: string) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function settle(r: StructuredDataEditResponse) {
    qc.setQueryData<ContentResponse>(keys.content(sessionId), (old) => (old ? { ...old, structured_data: r.structured_data, structured_data_version: r.structured_data_version } : old));
    for (const key of [workflowKeys.review(sessionId), workflowKeys.summary(sessionId), workflowKeys.history(sessionId), structuredHistoryKey(sessionId)]) void qc.invalidateQueries({ queryKey: key });
  }

  async function run(send: () => Promise<StructuredDataEditResponse>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      settle(await send());
      return true;
    } catch (err) {
      setError(errorMessage(err));
      // A change refused as stale (409 naming version) or otherwise: the panel shows the data as it is now.
      void qc.invalidateQueries({ queryKey: keys.content(sessionId) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  const params = (position: number) => ({ ambient_session_id: sessionId, position });
  // A change by position names the version of the data the clinician saw: a stale one is refused (409), never misplaced.
  const query = () => ({ version: qc.getQueryData<ContentResponse>(keys.content(sessionId))?.structured_data_version ?? 'unknown' });
  const save: SaveItem = (kind, position, body) =>
    run(() => {
      const r = ROUTES[kind];
      // The contracts differ only in their body schema; each is called with the body of its own kind.
      return position === null
        ? callAsClinician(qc, r.add as typeof routes.addDiagnosis, { params: { ambient_session_id: sessionId }, body: body as EditBodies['diagnoses'] })
        : callAsClinician(qc, r.update as typeof routes.updateDiagnosis, { params: params(position), query: query(), body: body as EditBodies['diagnoses'] });
    });
  const remove = (kind: StructuredKind, position: number) => run(() => callAsClinician(qc, ROUTES[kind].remove, { params: params(position), query: query() }));
  return { save, remove, busy, error, clearError: () => setError(null) };
}

export interface CodeOption {
  value: string;
  label: string;
  detail?: string;
}

/** The code searches the comboboxes run as the clinician types; the same functions on every render. */
export function useCodeSearch() {
  const qc = useQueryClient();
  return useMemo(() => codeSearches(qc), [qc]);
}

function codeSearches(qc: ReturnType<typeof useQueryClient>) {
  return {
    icd10: async (q: string): Promise<CodeOption[]> =>
      (await callAsClinician(qc, routes.searchIcd10, { query: { q } })).results.map((r) => ({ value: r.code, label: r.description, detail: r.code })),
    rxnorm: async (q: string): Promise<CodeOption[]> =>
      (await callAsClinician(qc, routes.searchRxNorm, { query: { q } })).results.map((r) => ({ value: r.rxcui, label: r.name, detail: `RxNorm ${r.rxcui}` })),
    substances: async (q: string): Promise<CodeOption[]> =>
      (await callAsClinician(qc, routes.searchAllergySubstances, { query: { q } })).results.map((r) => ({
        value: `${r.type}:${r.code}`,
        label: r.display,
        detail: r.type === 'DRUG_CLASS' ? 'drug class' : `RxNorm ${r.code}`,
      })),
    orderables: async (q: string): Promise<CodeOption[]> =>
      (await callAsClinician(qc, routes.searchOrderables, { query: { q } })).results.map((r) => ({
        value: r.code,
        label: r.display,
        detail: `${r.category === 'LAB' ? 'Lab' : 'Imaging'} · LOINC ${r.code}`,
      })),
  };
}
