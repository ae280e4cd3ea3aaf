import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { systemDb } from '../../db';
import { providerPartners, providers } from '../../db/schema';
import type { FhirExportSource } from './types';

/** The documenting clinician: name, email and the partner's own id for them. */
export async function loadProvider(app: AppContext, providerId: string, partnerId: string): Promise<FhirExportSource['provider']> {
  // Providers belong to no tenant; the link read is the partner's of a session or caller found through the scope.
  const [p] = await systemDb(app, "the documenting clinician of a session found through the caller's scope")
    .select({ id: providers.id, name: providers.name, email: providers.email, partnerProviderId: providerPartners.partnerProviderId })
    .from(providers)
    .leftJoin(providerPartners, and(eq(providerPartners.providerId, providers.id), eq(providerPartners.partnerId, partnerId)))
    .where(eq(providers.id, providerId))
    .limit(1);
  return { id: providerId, name: p?.name ?? '', email: p?.email ?? null, partnerProviderId: p?.partnerProviderId ?? null };
}

