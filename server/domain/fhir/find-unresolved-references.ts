import type { Bundle } from '@medplum/fhirtypes';

/**
 * Every `reference` in the Bundle's resources that does not resolve to an entry of the Bundle, by FHIR's
 * rules for Bundles: an absolute reference must equal an entry's fullUrl; a relative `Type/id` is
 * resolved against the base of the referring entry's RESTful fullUrl. Contained (#) references are
 * local to their resource and skipped. Returns `<fullUrl of referrer>: <reference>` strings.
 */
export function findUnresolvedReferences(bundle: Bundle): string[] {
  const urls = new Set((bundle.entry ?? []).map((e) => e.fullUrl).filter((u): u is string => !!u));
  const out: string[] = [];
  for (const entry of bundle.entry ?? []) {
    const from = entry.fullUrl ?? '';
    const base = entry.resource ? from.slice(0, Math.max(0, from.length - `${entry.resource.resourceType}/${entry.resource.id}`.length)) : '';
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'reference' && typeof value === 'string') {
          if (value.startsWith('#')) continue;
          const absolute = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `${base}${value}`;
          if (!urls.has(absolute)) out.push(`${from}: ${value}`);
        } else visit(value);
      }
    };
    visit(entry.resource);
  }
  return out;
}
