import type { Identifier, Practitioner } from '@medplum/fhirtypes';
import type { LocalSystems } from './systems';
import type { FhirExportSource } from './types';

/** The documenting clinician: this service's provider id, the partner's id for them, name and work email. */
export function buildPractitioner(provider: FhirExportSource['provider'], sys: LocalSystems): Practitioner {
  const identifier: Identifier[] = [{ use: 'secondary', system: sys.providerId, value: provider.id }];
  if (provider.partnerProviderId) identifier.unshift({ use: 'official', system: sys.partnerProviderId, value: provider.partnerProviderId });
  return {
    resourceType: 'Practitioner',
    id: provider.id,
    identifier,
    active: true,
    ...(provider.name.trim() ? { name: [{ text: provider.name.trim() }] } : {}),
    ...(provider.email ? { telecom: [{ system: 'email', value: provider.email, use: 'work' }] } : {}),
  };
}
