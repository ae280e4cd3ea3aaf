import type { AdminSession } from '@/lib/contracts/admin';
import type { ambientSessions } from '../../db/schema';

export function adminSessionDto(row: typeof ambientSessions.$inferSelect, provider: { name: string; email: string | null }): AdminSession {
  return {
    ambient_session_id: row.id,
    encounter_id: row.encounterId,
    note_id: row.noteId,
    emr_encounter_id: row.emrEncounterId,
    partner_id: row.partnerId,
    provider_id: row.providerId,
    provider_name: provider.name,
    provider_email: provider.email,
    status: row.status,
    error_code: row.errorCode,
    audio_ms: row.audioMs,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
