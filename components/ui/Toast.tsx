'use client';
import { useEffect } from 'react';
import { create } from 'zustand';
import { cn } from './cn';

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
}

interface ToastState {
  toasts: ToastItem[];
  /** Returns the toast's id, so the caller can take a hint back once it no longer applies. */
  push(tone: ToastTone, message: string): number;
  dismiss(id: number): void;
}

let nextId = 1;

/** Toasts are shared UI state: any component raises one, the single <Toaster/> in the layout shows them. */
export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  push: (tone, message) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts.slice(-4), { id, tone, message }] }));
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

export const toast = {
  info: (message: string) => useToasts.getState().push('info', message),
  success: (message: string) => useToasts.getState().push('success', message),
  error: (message: string) => useToasts.getState().push('error', message),
  dismiss: (id: number) => useToasts.getState().dismiss(id),
};

const TONES: Record<ToastTone, string> = {
  info: 'border-blue-300 bg-blue-50 text-blue-950',
  success: 'border-green-300 bg-green-50 text-green-950',
  error: 'border-red-300 bg-red-50 text-red-950',
};

function ToastView({ item }: { item: ToastItem }) {
  const dismiss = useToasts((s) => s.dismiss);
  useEffect(() => {
    // Errors stay until dismissed so they can be read; confirmations fade.
    if (item.tone === 'error') return;
    const t = setTimeout(() => dismiss(item.id), 6000);
    return () => clearTimeout(t);
  }, [item, dismiss]);
  return (
    <div className={cn('pointer-events-auto flex items-start gap-3 rounded-md border px-4 py-3 text-sm shadow', TONES[item.tone])}>
      <p className="flex-1">{item.message}</p>
      <button
        type="button"
        onClick={() => dismiss(item.id)}
        className="rounded px-1 text-current focus-visible:outline-2 focus-visible:outline-blue-700"
        aria-label="Dismiss notification"
      >
        ×
      </button>
    </div>
  );
}

/** Notifications are the app's, not the page's: none is printed (issue 29 item 7). */
export function Toaster() {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2 print:hidden" data-testid="toaster">
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {toasts.filter((t) => t.tone !== 'error').map((t) => (
          <ToastView key={t.id} item={t} />
        ))}
      </div>
      <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
        {toasts.filter((t) => t.tone === 'error').map((t) => (
          <ToastView key={t.id} item={t} />
        ))}
      </div>
    </div>
  );
}
