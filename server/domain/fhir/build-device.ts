import type { Device } from '@medplum/fhirtypes';
import { deriveResourceId } from './derive-resource-id';

/**
 * This service as the software that wrote the note: its name, the notes engine(s) that generated the
 * content, and the versions. The embedded engine ships inside the service, so its version is the
 * service's; an external engine is named by the engine key it was configured under.
 */
export function buildDevice(engines: string[], serviceVersion: string): Device {
  const names = engines.length ? engines : ['unknown'];
  return {
    resourceType: 'Device',
    id: deriveResourceId('Device', 'ambient-docs', serviceVersion, ...names),
    status: 'active',
    manufacturer: 'ambient-docs',
    deviceName: [
      { name: 'Ambient clinical documentation service', type: 'user-friendly-name' },
      ...names.map((e) => ({ name: `${e} notes engine`, type: 'model-name' as const })),
    ],
    type: { text: 'Clinical documentation software' },
    version: [
      { type: { text: 'service' }, value: serviceVersion },
      ...names.map((e) => ({ type: { text: `${e} notes engine` }, value: serviceVersion })),
    ],
  };
}
