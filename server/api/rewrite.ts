import * as contract from '@/lib/contracts/routes/rewrite';
import { bindRoute } from '../http/route';
import { rewriteSelection } from '../domain/rewrite/rewrite-selection';

export const rewriteRoutes = [
  bindRoute(contract.rewriteSelection, ({ app, auth, body, requestId }) => rewriteSelection(app, auth, body, requestId)),
];
