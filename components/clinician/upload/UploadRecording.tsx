'use client';
import { useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api/fetch';
import { UPLOAD_ACCEPT } from '@/lib/contracts/uploads';
import { uploadRecording } from '@/lib/uploads/upload-recording';

type State = { kind: 'idle' } | { kind: 'sending'; name: string; sent: number; total: number } | { kind: 'done'; name: string } | { kind: 'error'; name: string; message: string };

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

/**
 * A recording made elsewhere (a phone, a dictaphone) as the visit's audio: the file is sent in chunks with
 * its progress shown, and once it is in, the visit is processed as a recorded one is.
 */
export function UploadRecording({ sessionId, onUploaded }: { sessionId: string; onUploaded: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });

  const send = async (file: File) => {
    setState({ kind: 'sending', name: file.name, sent: 0, total: file.size });
    try {
      await uploadRecording(qc, sessionId, file, (sent, total) => setState({ kind: 'sending', name: file.name, sent, total }));
      setState({ kind: 'done', name: file.name });
      onUploaded();
    } catch (err) {
      setState({ kind: 'error', name: file.name, message: errorMessage(err) });
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  const sending = state.kind === 'sending';
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="upload-recording">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Upload a recording
      </h2>
      <p className="mt-1 text-sm text-slate-700">Recorded on another device? Upload the audio file instead (WAV, MP3, M4A/AAC, WebM/Opus or FLAC).</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-file`} className="text-sm font-medium">
          Recording file
        </label>
        <input
          id={`${id}-file`}
          ref={input}
          type="file"
          accept={UPLOAD_ACCEPT}
          disabled={sending}
          className="max-w-full text-sm file:mr-2 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1 file:text-sm focus:outline-2 focus:outline-blue-700"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file);
          }}
          data-testid="upload-input"
        />
      </div>
      {state.kind === 'sending' ? (
        <div className="mt-2 text-sm">
          <progress className="w-full" max={state.total} value={state.sent} aria-label={`Uploading ${state.name}`} data-testid="upload-progress" />
          <p role="status">
            {state.sent < state.total ? `Uploading ${state.name}: ${mb(state.sent)} of ${mb(state.total)}` : `Decoding ${state.name}…`}
          </p>
        </div>
      ) : state.kind === 'done' ? (
        <p role="status" className="mt-2 text-sm text-green-800" data-testid="upload-done">
          {state.name} uploaded; the note is being written.
        </p>
      ) : state.kind === 'error' ? (
        <p role="alert" className="mt-2 text-sm text-red-800" data-testid="upload-error">
          {state.name} was not uploaded: {state.message}
        </p>
      ) : null}
    </section>
  );
}
