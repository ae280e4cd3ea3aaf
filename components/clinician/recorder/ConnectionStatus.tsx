'use client';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui';
import { seconds } from './seconds';
import { useRecorderStore, type ConnectionState } from '@/lib/stores/recorder';
import { formatDuration } from '../format';

const CONNECTION: Record<ConnectionState, { label: string; cls: string }> = {
  idle: { label: 'Not connected', cls: 'bg-slate-100 text-slate-800 ring-slate-300' },
  connecting: { label: 'Connecting…', cls: 'bg-blue-50 text-blue-900 ring-blue-300' },
  connected: { label: 'Connected', cls: 'bg-green-50 text-green-900 ring-green-300' },
  reconnecting: { label: 'Reconnecting…', cls: 'bg-amber-50 text-amber-900 ring-amber-300' },
  offline: { label: 'Offline', cls: 'bg-red-50 text-red-900 ring-red-300' },
};

/** The current time, once a second while `on`. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/**
 * What the connection is doing, said plainly: how long it has been down, when the next attempt is, and how
 * much audio waits on this device for the server.
 */
export function ConnectionStatus({ active, onRetry }: { active: boolean; onRetry: () => void }) {
  const st = useRecorderStore();
  const connection = active ? st.connection : 'idle';
  const down = active && st.downSinceMs !== null && connection !== 'connected' && connection !== 'idle';
  const now = useNow(down);
  const conn = CONNECTION[connection];
  const paused = active && st.phase === 'paused';
  return (
    <div className="flex flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center gap-2" role="status" aria-live="polite">
        <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${conn.cls}`} data-testid="connection-state">
          <span aria-hidden="true">●</span> {conn.label}
        </span>
        {paused ? <span className="font-medium text-amber-900">Paused</span> : null}
        {active && st.unackedMs >= 1000 ? (
          <span className="text-slate-700" data-testid="unsent">
            {seconds(st.unackedMs)} of audio waiting to be sent, kept on this device
          </span>
        ) : null}
      </div>
      {down ? (
        <p className="flex flex-wrap items-center gap-2 text-amber-950" data-testid="connection-down">
          <span>
            No connection to the server for <span className="font-mono tabular-nums">{formatDuration(now - st.downSinceMs!)}</span>
            {st.nextAttemptAt && st.nextAttemptAt > now ? `; trying again in ${Math.ceil((st.nextAttemptAt - now) / 1000)} s` : '; trying again now'}. Recording
            continues; nothing is lost.
          </span>
          <Button variant="secondary" onClick={onRetry}>
            Try now
          </Button>
        </p>
      ) : null}
      {active && st.notKept ? (
        <p className="text-amber-950" data-testid="not-kept">
          {st.notKept === 'failed'
            ? 'This browser could not keep the unsent audio on this device: keep this page open until it is sent.'
            : 'More audio is waiting than this device keeps (30 minutes): keep this page open until it is sent.'}
        </p>
      ) : null}
      {active && st.captureLostMs >= 500 ? (
        <p className="text-amber-950" data-testid="capture-lost">
          About {seconds(st.captureLostMs)} of sound never came from the microphone (this computer was too busy to take it): words said then are
          not in the recording.
        </p>
      ) : null}
    </div>
  );
}
