import type { Bundle } from '@medplum/fhirtypes';
import { findUnresolvedReferences } from './find-unresolved-references';
import { validateFhirResource } from './validate-fhir-resource';

/**
 * The development-mode check of every export (FHIR_VALIDATE, on by default outside production): the
 * Bundle must validate against FHIR R4 with no errors and every reference must resolve inside it. A
 * failure is a bug in the export, so it throws (the route answers 500) rather than shipping bad FHIR.
 * Quoted values are cut from the issue texts so no note content reaches the logs.
 */
export function assertValidBundle(bundle: Bundle): void {
  const errors = validateFhirResource(bundle)
    .filter((i) => i.severity === 'error' || i.severity === 'fatal')
    .map((i) => `${i.expression?.join(',') ?? ''}: ${(i.details?.text ?? i.code).replace(/"[^"]*"/g, '"…"')}`);
  const unresolved = findUnresolvedReferences(bundle);
  if (errors.length || unresolved.length) {
    throw new Error(`FHIR export failed validation: ${[...errors, ...unresolved.map((u) => `unresolved reference ${u}`)].join('; ')}`);
  }
}
