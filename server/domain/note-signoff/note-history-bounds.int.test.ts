/**
 * The note history stays bounded and comes back in pages (issue 26 item 2: 600 autosaves made a 64 MB
 * history served in one answer). In process, on PGlite (or a fresh PostgreSQL database with TEST_DATABASE_URL).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import type { NoteHistoryEvent } from '@/lib/contracts/note-signoff';
import type { AppContext } from '../../context';
import * as t from '../../db/schema';
import { openTenancyApp, SECTION_LOINC, seedProvider, seedTenant, type Tenant } from '../../test/security/fixtures/tenants';
import { updateSectionContent } from '../clinician-app/update-section-content';
import { amendNote } from './amend-note';
import { getNoteHistory } from './get-note-history';
import { signNote } from './sign-note';

let app: AppContext;
let close: () => Promise<void>;
let tenant: Tenant;
let other: Tenant;
let n = 0;

beforeAll(async () => {
  ({ app, close } = await openTenancyApp());
  tenant = await seedTenant(app.db, 'hist');
  other = await seedTenant(app.db, 'hist-other');
}, 240_000);
afterAll(() => close?.());

/** A fresh provider of the tenant's partner with its own completed visit and one-section note. */
const visit = () => seedProvider(app.db, tenant.partnerId, `hist-${++n}`);
const withLimits = (limits: AppContext['config']['noteHistory']): AppContext => ({ ...app, config: { ...app.config, noteHistory: limits } });

async function storedVersions(sessionId: string) {
  const [row] = await app.db
    .select({ rows: sql<number>`count(*)`, chars: sql<number>`coalesce(sum(length(${t.noteSectionVersions.before}) + length(${t.noteSectionVersions.after})), 0)` })
    .from(t.noteSectionVersions)
    .where(eq(t.noteSectionVersions.sessionId, sessionId));
  return { rows: Number(row!.rows), chars: Number(row!.chars) };
}

async function walk(a: AppContext, v: Awaited<ReturnType<typeof visit>>, limit: number, order: 'asc' | 'desc') {
  const pages: NoteHistoryEvent[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await getNoteHistory(a, v.service, v.sessionId, { limit, order, cursor });
    pages.push(page.events);
    if (!page.next_cursor) return pages;
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThan(100);
  }
}

describe('editing bursts', () => {
  it('keeps 600 autosaves of one section by one clinician as one version: the first before, the last after', async () => {
    const v = await visit();
    const original = `Seen by hist-${n}.`;
    // A section grown a line at a time, as autosave sends it after each pause.
    let text = original;
    for (let i = 1; i <= 600; i++) {
      text += ` Line ${i} of the history of present illness, typed and saved.`;
      await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, text);
    }
    const stored = await storedVersions(v.sessionId);
    expect(stored.rows).toBe(1);
    expect(stored.chars).toBe(original.length + text.length);
    const history = await getNoteHistory(app, v.service, v.sessionId);
    expect(history.events).toHaveLength(1);
    expect(history.events[0]).toMatchObject({ type: 'edit', loinc_code: SECTION_LOINC, before: original, after: text, by: { provider_id: v.providerId } });
    expect(history.next_cursor).toBeNull();
  }, 240_000);

  it('never spans a signature or an amendment, and a burst that ends where it began leaves no version', async () => {
    const v = await visit();
    const original = `Seen by hist-${n}.`;
    await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, `${original} typo`);
    await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, original);
    expect((await storedVersions(v.sessionId)).rows).toBe(0);

    await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, 'Signed text.');
    await signNote(app, v.service, v.sessionId);
    await amendNote(app, v.service, v.sessionId, 'dose corrected');
    await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, 'Amended text.');
    await updateSectionContent(app, v.service, v.sessionId, SECTION_LOINC, 'Amended text, twice.');
    const history = await getNoteHistory(app, v.service, v.sessionId);
    expect(history.events.map((e) => e.type)).toEqual(['edit', 'sign', 'amend', 'edit']);
    expect(history.events[0]).toMatchObject({ before: original, after: 'Signed text.' });
    expect(history.events[3]).toMatchObject({ before: 'Signed text.', after: 'Amended text, twice.' });
  });
});

describe('versions kept per section', () => {
  it('keeps the newest K versions of a section and every version a signature covered, with every sign and amend', async () => {
    const v = await visit();
    const a = withLimits({ burstMinutes: 0, versionsPerSection: 5 });
    const edit = (text: string) => updateSectionContent(a, v.service, v.sessionId, SECTION_LOINC, text);
    for (let i = 1; i <= 10; i++) await edit(`draft ${i}`);
    await signNote(a, v.service, v.sessionId);
    await amendNote(a, v.service, v.sessionId, 'first correction');
    for (let i = 1; i <= 10; i++) await edit(`amended ${i}`);
    await signNote(a, v.service, v.sessionId);
    await amendNote(a, v.service, v.sessionId, 'second correction');
    for (let i = 1; i <= 30; i++) await edit(`again ${i}`);

    const stored = await storedVersions(v.sessionId);
    expect(stored.rows).toBe(5 + 2); // the newest five, and the two versions that were signed
    const { events } = await getNoteHistory(a, v.service, v.sessionId);
    expect(events.map((e) => e.type)).toEqual(['edit', 'sign', 'amend', 'edit', 'sign', 'amend', 'edit', 'edit', 'edit', 'edit', 'edit']);
    const edits = events.filter((e) => e.type === 'edit');
    expect(edits.map((e) => e.after)).toEqual(['draft 10', 'amended 10', 'again 26', 'again 27', 'again 28', 'again 29', 'again 30']);
    const signs = events.filter((e) => e.type === 'sign');
    expect(signs.map((e) => e.summary[0]!.content)).toEqual(['draft 10', 'amended 10']);
    expect(events.filter((e) => e.type === 'amend').map((e) => e.reason)).toEqual(['first correction', 'second correction']);
  });
});

describe('paging', () => {
  /** A history with ties: edits and signoffs written in the same millisecond as each other. */
  async function tiedHistory() {
    const v = await visit();
    const base = Date.UTC(2026, 0, 5, 9, 0, 0);
    for (let i = 0; i < 23; i++) {
      const at = new Date(base + Math.floor(i / 3) * 1000);
      await app.db.insert(t.noteSectionVersions).values({ sessionId: v.sessionId, loincCode: SECTION_LOINC, before: `b${i}`, after: `a${i}`, providerId: v.providerId, at });
      if (i % 4 === 0) await app.db.insert(t.noteSignoffs).values({ sessionId: v.sessionId, action: 'amend', reason: `r${i}`, providerId: v.providerId, at });
    }
    return v;
  }
  const label = (e: NoteHistoryEvent) => (e.type === 'edit' ? e.after : e.type === 'amend' ? e.reason : 'sign');

  it('returns at most limit events and a cursor that walks the rest, either way, without duplicates or gaps', async () => {
    const v = await tiedHistory();
    const whole = await getNoteHistory(app, v.service, v.sessionId, { limit: 200 });
    expect(whole.events).toHaveLength(23 + 6);
    expect(whole.next_cursor).toBeNull();
    // Oldest first; in one millisecond, edits ahead of the amend written with them.
    expect(whole.events.slice(0, 5).map(label)).toEqual(['a0', 'a1', 'a2', 'r0', 'a3']);

    for (const limit of [1, 4, 7]) {
      const asc = await walk(app, v, limit, 'asc');
      expect(asc.every((p) => p.length <= limit && p.length > 0)).toBe(true);
      expect(asc.flat().map(label)).toEqual(whole.events.map(label));
      const desc = await walk(app, v, limit, 'desc');
      expect(desc.flat().map(label)).toEqual(whole.events.map(label).reverse());
    }
  });

  it('answers the first page by default, as a client written before paging asks', async () => {
    const v = await tiedHistory();
    const page = await getNoteHistory(app, v.service, v.sessionId);
    expect(page.events).toHaveLength(29);
    expect(page.next_cursor).toBeNull();
    expect(page).toMatchObject({ ambient_session_id: v.sessionId, note_status: 'draft', locked: false });
  });

  it('ends a page early once its text passes the page budget, and always moves on', async () => {
    const v = await visit();
    const big = 'x'.repeat(450_000);
    for (let i = 0; i < 5; i++) {
      await app.db.insert(t.noteSectionVersions).values({ sessionId: v.sessionId, loincCode: SECTION_LOINC, before: big, after: `${big}${i}`, providerId: v.providerId, at: new Date(Date.UTC(2026, 0, 5, 9, i)) });
    }
    const pages = await walk(app, v, 100, 'asc');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((e) => (e.type === 'edit' ? e.after.slice(-1) : ''))).toEqual(['0', '1', '2', '3', '4']);
  });

  it("answers 400 naming the cursor for a forged one, and 404 for another tenant's history, cursor or not", async () => {
    const v = await tiedHistory();
    const first = await getNoteHistory(app, v.service, v.sessionId, { limit: 2 });
    const status = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return 200;
      } catch (err) {
        if (!isApiError(err)) throw err;
        return `${err.status} ${err.message}`;
      }
    };
    expect(await status(() => getNoteHistory(app, v.service, v.sessionId, { cursor: 'not-a-cursor' }))).toMatch(/^400 cursor: /);
    const forged = Buffer.from(JSON.stringify(['2026-01-05T09:00:00.000Z', 7, 1])).toString('base64url');
    expect(await status(() => getNoteHistory(app, v.service, v.sessionId, { cursor: forged }))).toMatch(/^400 cursor: /);
    expect(await status(() => getNoteHistory(app, other.service, v.sessionId))).toMatch(/^404 /);
    expect(await status(() => getNoteHistory(app, other.service, v.sessionId, { cursor: first.next_cursor! }))).toMatch(/^404 /);
  });
});
