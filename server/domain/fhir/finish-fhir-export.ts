import type { Bundle } from '@medplum/fhirtypes';
import { FHIR_JSON, FHIR_NDJSON, wantsNdjson, type FhirExportQuery } from '@/lib/contracts/fhir';
import type { AppContext } from '../../context';
import { assertValidBundle } from './assert-valid-bundle';
import { buildDocumentBundle } from './build-document-bundle';
import type { FhirExportSource } from './types';

/**
 * Builds the document from its source, checks it when FHIR_VALIDATE is on, and answers it as
 * application/fhir+json, or with `_format=ndjson` as one resource per line (application/fhir+ndjson) for
 * bulk loaders. `download` names the file for browsers saving it.
 */
export function finishFhirExport(app: AppContext, src: FhirExportSource, query: FhirExportQuery, download?: string): Response {
  const bundle: Bundle = buildDocumentBundle(src);
  if (app.config.fhirValidate) assertValidBundle(bundle);
  const ndjson = wantsNdjson(query._format);
  const body = ndjson ? (bundle.entry ?? []).map((e) => JSON.stringify(e.resource)).join('\n') + '\n' : JSON.stringify(bundle);
  const headers: Record<string, string> = { 'content-type': `${ndjson ? FHIR_NDJSON : FHIR_JSON}; charset=utf-8`, 'cache-control': 'no-store' };
  if (download) headers['content-disposition'] = `attachment; filename="${download}.${ndjson ? 'ndjson' : 'fhir.json'}"`;
  return new Response(body, { status: 200, headers });
}
