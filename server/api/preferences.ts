import * as contract from '@/lib/contracts/routes/preferences';
import { bindRoute } from '../http/route';
import { getPreferences } from '../domain/preferences/get-preferences';
import { updatePreferences } from '../domain/preferences/update-preferences';

export const preferenceRoutes = [
  bindRoute(contract.getPreferences, ({ app, auth }) => getPreferences(app, auth)),
  bindRoute(contract.updatePreferences, ({ app, auth, body }) => updatePreferences(app, auth, body)),
];
