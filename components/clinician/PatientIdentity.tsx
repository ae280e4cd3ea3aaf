'use client';
import { useState } from 'react';
import { Button, Input, toast } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { useUpdatePatient } from '@/lib/hooks/workflow';

/** The visit's patient name and MRN, with an inline form to set or correct them at any time. */
export function PatientIdentity({ sessionId, name, mrn }: { sessionId: string; name: string | null; mrn: string | null }) {
  const update = useUpdatePatient(sessionId);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState({ name: name ?? '', mrn: mrn ?? '' });
  const [error, setError] = useState<string | null>(null);

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="visit-patient">
        <span>
          <span className="text-slate-700">Patient: </span>
          <span className="font-medium">{name ?? 'not given'}</span>
          {mrn ? <span className="text-slate-700"> · MRN {mrn}</span> : null}
        </span>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setForm({ name: name ?? '', mrn: mrn ?? '' });
            setError(null);
            setEditing(true);
          }}
        >
          Edit patient
        </Button>
      </div>
    );
  }
  return (
    <form
      className="flex flex-wrap items-end gap-2 rounded-md border border-slate-200 bg-white p-2"
      aria-label="Edit patient"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutateAsync({ name: form.name.trim() || null, mrn: form.mrn.trim() || null }).then(
          () => {
            setEditing(false);
            toast.success('Patient details saved.');
          },
          (err: unknown) => setError(errorMessage(err)),
        );
      }}
    >
      <Input label="Patient name" value={form.name} maxLength={200} autoComplete="off" onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />
      <Input label="MRN" value={form.mrn} maxLength={64} autoComplete="off" onChange={(e) => setForm((f) => ({ ...f, mrn: e.target.value }))} />
      <Button size="sm" type="submit" loading={update.isPending}>
        Save patient
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-800">
          Not saved: {error}
        </p>
      ) : null}
    </form>
  );
}
