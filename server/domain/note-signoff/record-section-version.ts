import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config';
import type { TenantDb } from '../../db';
import { noteSectionVersions, noteSignoffs } from '../../db/schema';

export interface SectionEdit {
  sessionId: string;
  loincCode: string;
  before: string;
  after: string;
  providerId: string;
  at: Date;
}

/**
 * Keeps a section edit in the note's history, bounded (issue 26 item 2). Autosave sends the whole section
 * after every pause, so one clinician's burst of typing became hundreds of full-text rows. Now:
 * - an edit by the provider who wrote the section's newest version, at most `burstMinutes` after it, and
 *   with no sign or amend since, updates that version (burstMinutes 0: never): the burst's first `before`, its last `after`, the
 *   time of its last edit. A burst that ends where it began leaves no version.
 * - each section keeps its newest `versionsPerSection` versions, plus, for every signature, the version
 *   that signature covered (the newest one at or before it), so what was signed is never lost.
 * Sign and amend events themselves live in note_signoffs and are never pruned. Called inside the edit's
 * transaction, which holds the note row locked, so two edits of one note never race here.
 */
export async function recordSectionVersion(tx: TenantDb, limits: Config['noteHistory'], edit: SectionEdit): Promise<void> {
  const ofSection = and(eq(noteSectionVersions.sessionId, edit.sessionId), eq(noteSectionVersions.loincCode, edit.loincCode));
  const [prev] = await tx
    .select(noteSectionVersions, { id: noteSectionVersions.id, providerId: noteSectionVersions.providerId, at: noteSectionVersions.at, before: noteSectionVersions.before }, ofSection)
    .orderBy(desc(noteSectionVersions.at), desc(noteSectionVersions.id))
    .limit(1);
  const inBurst = (at: Date) => limits.burstMinutes > 0 && edit.at.getTime() - at.getTime() <= limits.burstMinutes * 60_000;
  if (prev && prev.providerId === edit.providerId && inBurst(prev.at)) {
    const [lastSignoff] = await tx
      .select(noteSignoffs, { at: noteSignoffs.at }, eq(noteSignoffs.sessionId, edit.sessionId))
      .orderBy(desc(noteSignoffs.at))
      .limit(1);
    // A burst never spans a signature or an amendment: the version before one stays as it was.
    if (!lastSignoff || prev.at.getTime() > lastSignoff.at.getTime()) {
      if (edit.after === prev.before) await tx.delete(noteSectionVersions, eq(noteSectionVersions.id, prev.id));
      else await tx.update(noteSectionVersions, { after: edit.after, at: edit.at }, eq(noteSectionVersions.id, prev.id));
      return;
    }
  }
  await tx.insert(noteSectionVersions, edit);
  await pruneSection(tx, limits.versionsPerSection, edit.sessionId, edit.loincCode);
}

async function pruneSection(tx: TenantDb, keep: number, sessionId: string, loincCode: string): Promise<void> {
  // At most keep + signatures + 1 rows, since every insert prunes: small, and without the texts.
  const rows = await tx
    .select(noteSectionVersions, { id: noteSectionVersions.id, at: noteSectionVersions.at }, and(eq(noteSectionVersions.sessionId, sessionId), eq(noteSectionVersions.loincCode, loincCode)))
    .orderBy(desc(noteSectionVersions.at), desc(noteSectionVersions.id));
  if (rows.length <= keep) return;
  const signs = await tx.select(noteSignoffs, { at: noteSignoffs.at }, and(eq(noteSignoffs.sessionId, sessionId), eq(noteSignoffs.action, 'sign')));
  const covered = new Set<number>();
  for (const s of signs) {
    const v = rows.find((r) => r.at.getTime() <= s.at.getTime());
    if (v) covered.add(v.id);
  }
  const drop = rows.slice(keep).filter((r) => !covered.has(r.id)).map((r) => r.id);
  if (drop.length > 0) await tx.delete(noteSectionVersions, inArray(noteSectionVersions.id, drop));
}
