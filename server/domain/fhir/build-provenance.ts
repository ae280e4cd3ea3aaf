import type { Device, Media, Practitioner, Provenance, ProvenanceAgent, Reference, Resource } from '@medplum/fhirtypes';
import { deriveResourceId } from './derive-resource-id';
import { SYSTEM, ref } from './systems';
import type { FhirExportSource } from './types';

export interface ProvenanceInput {
  src: FhirExportSource;
  /** The resources this service wrote: Composition, DocumentReference and the coded entries. */
  targets: Resource[];
  device: Device;
  practitioner: Practitioner;
  recordings: Media[];
}

/**
 * Who wrote the document and from what: this service (the Device naming the engine and version) as
 * author on the clinician's behalf, the clinician as attester once the note is signed, and the visit's
 * recordings as sources.
 */
export function buildProvenance(input: ProvenanceInput): Provenance {
  const { src } = input;
  const agent: ProvenanceAgent[] = [
    {
      type: { coding: [{ system: SYSTEM.provenanceParticipant, code: 'author', display: 'Author' }] },
      who: ref(input.device),
      onBehalfOf: ref(input.practitioner),
    },
  ];
  if (src.noteStatus !== 'draft' && src.signedAt) {
    agent.push({ type: { coding: [{ system: SYSTEM.provenanceParticipant, code: 'attester', display: 'Attester' }] }, who: ref(input.practitioner) });
  }
  return {
    resourceType: 'Provenance',
    id: deriveResourceId('Provenance', src.scope.kind, src.scope.id),
    target: input.targets.map((t) => ref(t) as Reference),
    recorded: src.updatedAt.toISOString(),
    activity: { coding: [{ system: SYSTEM.dataOperation, code: 'CREATE', display: 'create' }] },
    agent,
    ...(input.recordings.length ? { entity: input.recordings.map((m) => ({ role: 'source' as const, what: ref(m) as Reference })) } : {}),
  };
}
