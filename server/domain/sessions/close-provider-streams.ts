import { and, eq, inArray } from 'drizzle-orm';
import { CLOSE } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions, providerPartners, transcriptionSessions } from '../../db/schema';
import { getHub } from '../../realtime/hub';
import type { AllTenantsScope, ProviderScope } from '../scope/scope';

/** The sweep acts for the service over every tenant's streams open in this process, as a job would. */
const EVERY_TENANT: AllTenantsScope = { kind: 'all' };

const DISABLED_REASON = 'provider is disabled';

/**
 * Ends, in this process, the streams of providers whose link to a partner is disabled: status event streams
 * (a last `event: end` with reason `disabled`) and /ws/ambient and /ws/transcribe streams, each once its
 * received audio is stored (close 4403; the sessions stay as they are, and a reconnect is refused at its
 * authentication). Given a link: that provider's streams through that partner (disableProvider, in the
 * process that disabled it). Without one: those of every disabled link (the sweep by which the other web
 * processes of a PostgreSQL deployment catch up, every DISABLED_STREAMS_SWEEP_MS).
 */
export async function closeProviderStreams(app: AppContext, link?: ProviderScope): Promise<void> {
  const scope = link ?? EVERY_TENANT;
  const sse = app.services.sse;
  const holders = sse.holders().filter((h) => !link || (h.providerId === link.providerId && h.partnerId === link.partnerId));
  if (holders.length > 0) {
    const rows = await tenantDb(app, scope).select(
      providerPartners,
      { providerId: providerPartners.providerId, partnerId: providerPartners.partnerId },
      and(eq(providerPartners.disabled, true), inArray(providerPartners.providerId, [...new Set(holders.map((h) => h.providerId))])),
    );
    const off = new Set(rows.map((r) => `${r.providerId}|${r.partnerId}`));
    if (off.size) sse.endWhere((h) => off.has(`${h.providerId}|${h.partnerId}`), 'disabled');
  }
  await getHub(app).stopStreamsOf(
    async (ids) => {
      const ofDisabled = (table: typeof ambientSessions | typeof transcriptionSessions) =>
        tenantDb(app, scope)
          .select(table, { id: table.id }, and(inArray(table.id, ids), eq(providerPartners.disabled, true)))
          .innerJoin(providerPartners, and(eq(providerPartners.providerId, table.providerId), eq(providerPartners.partnerId, table.partnerId)));
      const [ambient, dictation] = await Promise.all([ofDisabled(ambientSessions), ofDisabled(transcriptionSessions)]);
      return new Set([...ambient, ...dictation].map((r) => r.id));
    },
    CLOSE.FORBIDDEN,
    DISABLED_REASON,
  );
}
