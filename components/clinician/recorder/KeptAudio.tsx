'use client';
import { useState } from 'react';
import { Button, Dialog } from '@/components/ui';
import { seconds } from './seconds';
import { useRecorderStore } from '@/lib/stores/recorder';

/**
 * Audio an earlier page of this visit kept on the device: says that it is being resent before any new
 * audio, and when it is on the server. Unsent audio the recorder cannot send (the visit ended elsewhere) can
 * be discarded, only after an explicit confirmation.
 */
export function KeptAudio({ active, onDiscard }: { active: boolean; onDiscard: () => Promise<void> }) {
  const st = useRecorderStore();
  const [confirm, setConfirm] = useState(false);
  const restored = active ? st.restored : null;
  // Offered only when nothing is sending it (the visit ended elsewhere, or the recorder stopped).
  const stuck = active && st.unackedMs > 0 && (st.phase === 'error' || st.phase === 'idle') && st.connection === 'idle';
  return (
    <>
      {restored ? (
        <p className="rounded-md bg-blue-50 p-2 text-sm text-blue-950" data-testid="kept-audio">
          {st.ackedMs >= restored.untilMs
            ? `The ${seconds(restored.ms)} of audio kept on this device from before the page was reloaded is now on the server.`
            : `${seconds(restored.ms)} of audio recorded before the page was reloaded had not reached the server. It was kept on this device and is being sent now, before any new audio.`}
        </p>
      ) : null}
      {stuck ? (
        <Button variant="danger" onClick={() => setConfirm(true)}>
          Discard unsent audio…
        </Button>
      ) : null}
      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        title="Discard audio that is not on the server?"
        description={`${seconds(st.unackedMs)} of this visit's audio is kept only on this device. Discarding deletes it for good; it will not be in the transcript or the note.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirm(false);
                void onDiscard();
              }}
            >
              Discard audio
            </Button>
          </>
        }
      />
    </>
  );
}
