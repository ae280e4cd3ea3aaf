import * as contract from '@/lib/contracts/routes/session-status-events';
import { bindRoute } from '../http/route';
import { streamSessionStatus } from '../domain/sessions/stream-session-status';

export const sessionStatusEventRoutes = [
  bindRoute(contract.streamSessionStatus, ({ app, auth, params }) => streamSessionStatus(app, auth, params.ambient_session_id)),
];
