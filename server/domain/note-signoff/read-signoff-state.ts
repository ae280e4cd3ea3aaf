import { eq } from 'drizzle-orm';
import type { NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { TenantDb } from '../../db';
import { providers, sessionContent } from '../../db/schema';

/** The note's sign-off state as the API reports it (the signer named by the provider record). */
export async function readSignoffState(tdb: TenantDb, sessionId: string): Promise<NoteSignoffState> {
  const [row] = await tdb
    .select(
      sessionContent,
      {
        noteStatus: sessionContent.noteStatus,
        signedAt: sessionContent.signedAt,
        signedBy: sessionContent.signedBy,
        locked: sessionContent.noteLocked,
        signerName: providers.name,
      },
      eq(sessionContent.sessionId, sessionId),
    )
    .leftJoin(providers, eq(providers.id, sessionContent.signedBy))
    .limit(1);
  return {
    ambient_session_id: sessionId,
    note_status: (row?.noteStatus ?? 'draft') as NoteStatus,
    signed_at: row?.signedAt?.toISOString() ?? null,
    signed_by: row?.signedBy ? { provider_id: row.signedBy, name: row.signerName ?? null } : null,
    locked: row?.locked ?? false,
  };
}
