'use client';
import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent } from 'react';
import { Button, Input, Select } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { SessionContext } from '@/lib/contracts/sessions';
import { PatientContext, VisitContext } from '@/lib/contracts/session-context';
import { DEFAULT_NOTE_SECTIONS } from '@/lib/info';
import { useCreateVisit, useInfo } from '@/lib/hooks/sessions';
import { humanize } from './format';

interface FormState {
  visit_type: string;
  encounter_type: string;
  specialty: string;
  provider_role: string;
  chief_complaint: string;
  reason_for_visit: string;
  sex: string;
  dob: string;
  patient_name: string;
  mrn: string;
  sections: string[];
}

const INITIAL: FormState = {
  visit_type: 'ESTABLISHED_PATIENT',
  encounter_type: 'AMBULATORY',
  specialty: 'FAMILY_MEDICINE',
  provider_role: 'ATTENDING',
  chief_complaint: '',
  reason_for_visit: '',
  sex: '',
  dob: '',
  patient_name: '',
  mrn: '',
  sections: [...DEFAULT_NOTE_SECTIONS],
};

/**
 * The free-text fields and their schemas, taken from the contract the API validates with, so the form
 * accepts exactly what the API does and says so while the clinician types, not only on submit.
 */
const TEXT_FIELDS = {
  chief_complaint: VisitContext.shape.chief_complaint.unwrap(),
  reason_for_visit: VisitContext.shape.reason_for_visit.unwrap(),
  patient_name: PatientContext.shape.name.unwrap(),
  mrn: PatientContext.shape.mrn.unwrap(),
};
type TextField = keyof typeof TEXT_FIELDS;
export const TEXT_LIMITS = Object.fromEntries(Object.entries(TEXT_FIELDS).map(([k, z]) => [k, z.maxLength ?? Infinity])) as Record<TextField, number>;
const capitalise = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

/** The contract's complaint about a text field as typed (what is sent is trimmed, and empty is left out). */
function textFieldError(k: TextField, value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const r = TEXT_FIELDS[k].safeParse(v);
  return r.success ? undefined : capitalise(r.error.issues[0]!.message);
}

/** The context the API receives, with empty optional fields left out. */
export function contextFrom(f: FormState) {
  const patient = {
    ...(f.patient_name.trim() ? { name: f.patient_name.trim() } : {}),
    ...(f.mrn.trim() ? { mrn: f.mrn.trim() } : {}),
    ...(f.sex ? { sex: f.sex } : {}),
    ...(f.dob ? { dob: f.dob } : {}),
  };
  return {
    ...(Object.keys(patient).length ? { patient } : {}),
    provider: { specialty: f.specialty, provider_role: f.provider_role },
    visit: {
      visit_type: f.visit_type,
      encounter_type: f.encounter_type,
      ...(f.chief_complaint.trim() ? { chief_complaint: f.chief_complaint.trim() } : {}),
      ...(f.reason_for_visit.trim() ? { reason_for_visit: f.reason_for_visit.trim() } : {}),
    },
    sections: f.sections.map((loinc) => ({ loinc })),
  };
}

/** Maps the contract's issue paths onto the form's fields. */
function fieldOf(path: PropertyKey[]): keyof FormState | 'form' {
  const [a, b] = path.map(String);
  if (a === 'patient' && (b === 'sex' || b === 'dob')) return b;
  if (a === 'patient' && b === 'name') return 'patient_name';
  if (a === 'patient' && b === 'mrn') return 'mrn';
  if (a === 'provider' && (b === 'specialty' || b === 'provider_role')) return b;
  if (a === 'visit' && (b === 'visit_type' || b === 'encounter_type' || b === 'chief_complaint' || b === 'reason_for_visit')) return b;
  if (a === 'sections') return 'sections';
  return 'form';
}

export function NewVisitForm() {
  const router = useRouter();
  const info = useInfo();
  const create = useCreateVisit();
  const [f, setF] = useState<FormState>(INITIAL);
  const [errors, setErrors] = useState<Partial<Record<keyof FormState | 'form', string>>>({});
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => {
    setF((s) => ({ ...s, [k]: v }));
    // Text is checked against the contract as it is typed; any other corrected field drops its message
    // (the next submit validates everything again).
    const live = k in TEXT_FIELDS ? textFieldError(k as TextField, v as string) : undefined;
    setErrors((e) => (e[k] !== live ? { ...e, [k]: live } : e));
  };
  const counted = (k: TextField, hint?: string) => `${hint ? `${hint} · ` : ''}${f[k].trim().length} of ${TEXT_LIMITS[k]} characters`;
  const opts = (list: Array<{ code: string }> | undefined) => (list ?? []).map((i) => ({ value: i.code, label: humanize(i.code) }));
  const loincs = info.data?.loincs ?? [];
  const sectionSet = useMemo(() => new Set(f.sections), [f.sections]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    if (f.sections.length === 0) next.sections = 'Choose at least one note section.';
    const parsed = SessionContext.safeParse(contextFrom(f));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const k = fieldOf(issue.path);
        next[k] ??= capitalise(issue.message);
      }
    }
    setErrors(next);
    if (Object.keys(next).length > 0) {
      const first = Object.keys(next)[0];
      document.querySelector<HTMLElement>(`[data-field="${first}"] input, [data-field="${first}"] select`)?.focus();
      return;
    }
    try {
      const created = await create.mutateAsync({ context: parsed.data! });
      router.push(`/visits/${created.ambient_session_id}`);
    } catch (err) {
      setErrors({ form: `The visit could not be created: ${errorMessage(err)}` });
    }
  }

  if (info.isError) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        The visit options could not be loaded: {errorMessage(info.error)}
      </p>
    );
  }
  if (info.isPending) return <p className="text-sm text-slate-700">Loading visit options…</p>;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-6 rounded-lg border border-slate-200 bg-white p-4" aria-describedby={errors.form ? 'form-error' : undefined}>
      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold">Visit</legend>
        <div data-field="chief_complaint" className="sm:col-span-2">
          <Input
            label="Chief complaint"
            value={f.chief_complaint}
            autoFocus
            onChange={(e) => set('chief_complaint', e.target.value)}
            error={errors.chief_complaint}
            hint={counted('chief_complaint', "In the patient's words, e.g. “chest pain for two days”")}
          />
        </div>
        <div data-field="reason_for_visit" className="sm:col-span-2">
          <Input
            label="Reason for visit"
            value={f.reason_for_visit}
            onChange={(e) => set('reason_for_visit', e.target.value)}
            error={errors.reason_for_visit}
            hint={counted('reason_for_visit')}
          />
        </div>
        <div data-field="visit_type">
          <Select label="Visit type" value={f.visit_type} options={opts(info.data.visit_types)} onChange={(e) => set('visit_type', e.target.value)} error={errors.visit_type} />
        </div>
        <div data-field="encounter_type">
          <Select
            label="Encounter type"
            value={f.encounter_type}
            options={opts(info.data.encounter_types)}
            onChange={(e) => set('encounter_type', e.target.value)}
            error={errors.encounter_type}
          />
        </div>
        <div data-field="specialty">
          <Select label="Specialty" value={f.specialty} options={opts(info.data.specialties)} onChange={(e) => set('specialty', e.target.value)} error={errors.specialty} />
        </div>
        <div data-field="provider_role">
          <Select
            label="Your role"
            value={f.provider_role}
            options={opts(info.data.provider_roles)}
            onChange={(e) => set('provider_role', e.target.value)}
            error={errors.provider_role}
          />
        </div>
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold">Patient (optional)</legend>
        <div data-field="patient_name">
          <Input label="Patient name" value={f.patient_name} autoComplete="off" onChange={(e) => set('patient_name', e.target.value)} error={errors.patient_name} hint={counted('patient_name')} />
        </div>
        <div data-field="mrn">
          <Input label="MRN" hint={counted('mrn', 'Medical record number')} value={f.mrn} autoComplete="off" onChange={(e) => set('mrn', e.target.value)} error={errors.mrn} />
        </div>
        <div data-field="sex">
          <Select
            label="Sex"
            value={f.sex}
            placeholder="Not given"
            options={['female', 'male', 'other', 'unknown'].map((v) => ({ value: v, label: humanize(v) }))}
            onChange={(e) => set('sex', e.target.value)}
            error={errors.sex}
          />
        </div>
        <div data-field="dob">
          <Input label="Date of birth" type="date" value={f.dob} onChange={(e) => set('dob', e.target.value)} error={errors.dob} />
        </div>
      </fieldset>

      <fieldset data-field="sections" aria-describedby={errors.sections ? 'sections-error' : 'sections-hint'}>
        <legend className="text-base font-semibold">Note sections</legend>
        <p id="sections-hint" className="mb-2 text-sm text-slate-700">
          The note is written in these sections. The standard sections are selected.{' '}
          <button type="button" className="text-blue-800 underline" onClick={() => set('sections', [...DEFAULT_NOTE_SECTIONS])}>
            Reset to standard
          </button>
        </p>
        {errors.sections ? (
          <p id="sections-error" role="alert" className="mb-2 text-sm font-medium text-red-700">
            {errors.sections}
          </p>
        ) : null}
        <div className="grid max-h-72 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-slate-200 p-2 sm:grid-cols-2" tabIndex={0} role="region" aria-label="Note sections to choose from">
          {loincs.map((l) => (
            <label key={l.code} className="flex items-start gap-2 rounded px-1 py-0.5 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4"
                checked={sectionSet.has(l.code)}
                onChange={(e) =>
                  set('sections', e.target.checked ? [...f.sections, l.code] : f.sections.filter((c) => c !== l.code))
                }
              />
              <span>
                {l.common_name ?? l.code} <span className="text-xs text-slate-600">LOINC {l.code}</span>
              </span>
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-700" aria-live="polite">
          {f.sections.length} selected
        </p>
      </fieldset>

      {errors.form ? (
        <p id="form-error" role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {errors.form}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => router.push('/visits')}>
          Back
        </Button>
        <Button type="submit" loading={create.isPending}>
          Create visit and go to recording
        </Button>
      </div>
    </form>
  );
}
