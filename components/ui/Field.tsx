'use client';
import { useId, type ReactNode } from 'react';
import { cn } from './cn';

export interface FieldProps {
  label: ReactNode;
  /** Shown under the control and linked with aria-describedby. */
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  className?: string;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, hint and error wiring shared by every form control. */
export function Field({ label, hint, error, required, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      {/* The asterisk sits outside the label so the control's accessible name is the label text alone. */}
      <span className="text-sm font-medium text-slate-800">
        <label htmlFor={id}>{label}</label>
        {required ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
      </span>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const controlClass = (invalid: boolean) =>
  cn(
    'w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm',
    'focus:outline-2 focus:outline-offset-1 focus:outline-blue-700 disabled:bg-slate-100',
    invalid ? 'border-red-600' : 'border-slate-300',
  );
