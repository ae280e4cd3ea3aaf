import * as contract from '@/lib/contracts/routes/ckg';
import { bindRoute, StatusReply } from '../http/route';
import { ingestCkgBundle } from '../domain/patient-context/ingest-ckg-bundle';
import { getCkgTransaction } from '../domain/patient-context/get-ckg-transaction';

export const ckgRoutes = [
  bindRoute(contract.ingestCkgBundle, async ({ app, auth, body }) => new StatusReply(202, await ingestCkgBundle(app, auth, body))),
  bindRoute(contract.getCkgTransaction, ({ app, auth, params }) => getCkgTransaction(app, auth, params.transaction_id)),
];
