import type { AppContext } from '../../context';

export function issueServiceToken(
  app: AppContext,
  p: { providerId: string; partnerId: string; organizationId: string; partnerProviderId: string | null },
): Promise<string> {
  return app.keys.sign(
    { sub: p.providerId, pid: p.partnerId, org: p.organizationId, ...(p.partnerProviderId ? { ppid: p.partnerProviderId } : {}) },
    app.config.serviceTokenTtlSeconds,
  );
}
