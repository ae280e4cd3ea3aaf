export { formatDuration } from '@/lib/transcript/duration';

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
