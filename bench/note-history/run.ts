/**
 * Note history size and serving cost after 600 autosaves of one long section (issue 26 item 2: the red
 * team's 600 edits made a 64 MB history served in 3.8 s). In process on PGlite (or TEST_DATABASE_URL):
 * once as one editing burst (the default NOTE_HISTORY_BURST_MINUTES), once with every edit its own
 * version (NOTE_HISTORY_BURST_MINUTES=0, as if each came after a long pause), where the per-section cap and
 * the page budget bound what is stored and served. Prints the figures; asserts nothing.
 *   npm run bench:note-history
 */
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../server/context';
import * as t from '../../server/db/schema';
import { updateSectionContent } from '../../server/domain/clinician-app/update-section-content';
import { getNoteHistory } from '../../server/domain/note-signoff/get-note-history';
import { openTenancyApp, SECTION_LOINC, seedProvider, seedTenant } from '../../server/test/security/fixtures/tenants';

const EDITS = 600;
const START_CHARS = 45_000;
const MB = (chars: number) => `${(chars / 1e6).toFixed(2)} M`;

async function scenario(app: AppContext, partnerId: string, label: string, burstMinutes: number) {
  const a: AppContext = { ...app, config: { ...app.config, noteHistory: { ...app.config.noteHistory, burstMinutes } } };
  const v = await seedProvider(app.db, partnerId, `bench-${label}`);
  let text = 'x'.repeat(START_CHARS);
  let before = `Seen by bench-${label}.`;
  let unbounded = 0; // what one full-text row per edit (the code before) would have stored
  const t0 = performance.now();
  for (let i = 1; i <= EDITS; i++) {
    text += ` l${i}.`;
    unbounded += before.length + text.length;
    before = text;
    await updateSectionContent(a, v.service, v.sessionId, SECTION_LOINC, text);
  }
  const editMs = performance.now() - t0;
  const [stored] = await app.db
    .select({ rows: sql<number>`count(*)`, chars: sql<number>`coalesce(sum(length(${t.noteSectionVersions.before}) + length(${t.noteSectionVersions.after})), 0)` })
    .from(t.noteSectionVersions)
    .where(eq(t.noteSectionVersions.sessionId, v.sessionId));
  const t1 = performance.now();
  const first = await getNoteHistory(a, v.service, v.sessionId);
  const pageMs = performance.now() - t1;
  const pageBytes = Buffer.byteLength(JSON.stringify(first));
  let pages = 1;
  let cursor = first.next_cursor;
  const t2 = performance.now();
  while (cursor) {
    const p = await getNoteHistory(a, v.service, v.sessionId, { cursor });
    cursor = p.next_cursor;
    pages += 1;
  }
  const walkMs = performance.now() - t2;
  console.log(
    `${label}: ${EDITS} edits in ${(editMs / 1000).toFixed(1)} s; stored ${stored!.rows} versions, ${MB(Number(stored!.chars))}chars ` +
      `(one row per edit would be ${EDITS} rows, ${MB(unbounded)}chars); default page ${first.events.length} events, ${MB(pageBytes)}B JSON in ${pageMs.toFixed(0)} ms; ` +
      `the rest in ${pages - 1} more page(s), ${walkMs.toFixed(0)} ms`,
  );
}

const { app, close } = await openTenancyApp();
try {
  const tenant = await seedTenant(app.db, 'bench');
  console.log(`note history bench, ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, section of ${START_CHARS} characters growing by one short line an edit`);
  await scenario(app, tenant.partnerId, 'one burst', app.config.noteHistory.burstMinutes);
  await scenario(app, tenant.partnerId, 'every edit its own version', 0);
} finally {
  await close();
}
