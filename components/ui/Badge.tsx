import type { ReactNode } from 'react';
import { cn } from './cn';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const TONES: Record<BadgeTone, string> = {
  neutral: 'bg-slate-100 text-slate-800 ring-slate-300',
  info: 'bg-blue-50 text-blue-900 ring-blue-300',
  success: 'bg-green-50 text-green-900 ring-green-300',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300',
  danger: 'bg-red-50 text-red-900 ring-red-300',
};

export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone], className)}>
      {children}
    </span>
  );
}

/** Colour for a session or delivery status word. */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'completed':
    case 'delivered':
    case 'SUCCESS':
      return 'success';
    case 'failed':
    case 'dead':
    case 'FAILURE':
      return 'danger';
    case 'aborted':
    case 'skipped':
    case 'pending':
    case 'retrying':
      return 'warning';
    case 'ready':
    case 'running':
      return 'info';
    default:
      return 'neutral';
  }
}
