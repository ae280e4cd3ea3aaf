'use client';
import { isTerminal, type SessionStatus } from '@/lib/contracts/session-status';
import { useContent } from '@/lib/hooks/sessions';

/**
 * Says so when the service ended the visit itself because its recorder went away (ended_reason `abandoned`,
 * docs/streaming.md): the note was written from the audio that reached the server, so whatever was said after
 * the connection dropped is missing from it.
 */
export function AbandonedBanner({ id, status }: { id: string; status: SessionStatus }) {
  // The content answers for any ended visit (an empty note when none was written); it shares NoteView's query.
  const content = useContent(id, isTerminal(status) ? 'completed' : undefined);
  if (content.data?.ended_reason !== 'abandoned') return null;
  return (
    <section role="status" aria-labelledby="abandoned-title" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="abandoned-banner">
      <h2 id="abandoned-title" className="font-semibold">
        This visit was ended automatically
      </h2>
      <p className="mt-1 text-sm">
        The recorder lost its connection and never came back, so the visit was finished from the audio that had reached the server.
        Anything said after the connection dropped is not in the transcript or the note: check the note against your memory of the visit
        before signing it.
      </p>
    </section>
  );
}
