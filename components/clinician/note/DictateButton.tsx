'use client';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, toast } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { callAsClinician, getServiceToken } from '@/lib/hooks/clinician-call';
import { createTranscriptionSession } from '@/lib/contracts/routes/dictation';
import { DICTATION_SAMPLE_RATE } from '@/lib/contracts/dictation';
import { Dictation, dictationUrl } from '@/lib/audio/dictation';
import { insertAtCursor } from './insert-at-cursor';

type Phase = 'idle' | 'starting' | 'listening' | 'finishing';

/**
 * "Dictate" for one note section: the microphone streams to /ws/transcribe, the words being spoken show
 * beneath the section as they are recognised, and each finished phrase is inserted at the cursor (where
 * it was when dictation began, then after each inserted phrase), so typing elsewhere is not disturbed.
 */
export function DictateButton({ title, textarea, change, disabled }: { title: string; textarea: RefObject<HTMLTextAreaElement | null>; change: (text: string) => void; disabled?: boolean }) {
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>('idle');
  const [partial, setPartial] = useState('');
  const dictation = useRef<Dictation | null>(null);
  const cursor = useRef(0);

  useEffect(() => () => void dictation.current?.stop(), []);

  const insert = (phrase: string) => {
    const el = textarea.current;
    if (!el) return;
    const { text, caret } = insertAtCursor(el.value, cursor.current, phrase);
    cursor.current = caret;
    change(text);
    requestAnimationFrame(() => {
      if (document.activeElement === el) el.setSelectionRange(caret, caret);
    });
  };

  const start = async () => {
    const el = textarea.current;
    cursor.current = el ? el.selectionEnd : 0;
    setPhase('starting');
    try {
      const created = await callAsClinician(qc, createTranscriptionSession, { body: { audio_config: { audio_encoding: 'LINEAR16', sample_rate_hertz: DICTATION_SAMPLE_RATE } } });
      const token = await getServiceToken(qc);
      const d = new Dictation(
        { url: dictationUrl(), transcriptionSessionId: created.transcription_session_id, token: token.service_token },
        {
          onPartial: setPartial,
          onFinal: insert,
          onError: (message) => {
            toast.error(message);
            setPhase('idle');
          },
        },
      );
      dictation.current = d;
      const started = await d.start();
      if (!started.ok) {
        toast.error(started.message);
        dictation.current = null;
        setPhase('idle');
        return;
      }
      setPhase('listening');
    } catch (err) {
      toast.error(`Dictation could not start: ${errorMessage(err)}`);
      setPhase('idle');
    }
  };

  const stop = async () => {
    setPhase('finishing');
    await dictation.current?.stop();
    dictation.current = null;
    setPhase('idle');
  };

  const busy = phase !== 'idle';
  return (
    <>
      <Button
        size="sm"
        variant={busy ? 'primary' : 'ghost'}
        disabled={(disabled && !busy) || phase === 'starting' || phase === 'finishing'}
        aria-pressed={busy}
        onClick={() => void (busy ? stop() : start())}
        data-testid="dictate"
      >
        {phase === 'listening' ? 'Stop dictating' : phase === 'finishing' ? 'Finishing…' : phase === 'starting' ? 'Starting…' : 'Dictate'}
        <span className="sr-only"> into {title}</span>
      </Button>
      {busy ? (
        <p className="w-full text-sm text-slate-700" data-testid="dictation-live">
          <span role="status">{phase === 'listening' ? 'Listening — speak, then press Stop dictating.' : phase === 'finishing' ? 'Adding the last words…' : 'Starting the microphone…'}</span>{' '}
          <span className="text-slate-600 italic" data-testid="dictation-partial">
            {partial}
          </span>
        </p>
      ) : null}
    </>
  );
}
