/** m:ss (or h:mm:ss) from milliseconds. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** "ESTABLISHED_PATIENT" → "Established patient". */
export function humanize(code: string): string {
  const s = code.replace(/_/g, ' ').toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export const STATUS_LABEL: Record<string, string> = {
  created: 'Not started',
  ready: 'Recording',
  running: 'Processing',
  completed: 'Note ready',
  skipped: 'Skipped',
  failed: 'Failed',
  aborted: 'Cancelled',
};
