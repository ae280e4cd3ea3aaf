import { INFO, INFO_ROUTES } from '@/lib/info';
import * as contract from '@/lib/contracts/routes/info';
import { bindRoute, type RouteDef } from '../http/route';

export const infoRoutes: RouteDef[] = [
  bindRoute(contract.getAllInfo, () => INFO),
  ...INFO_ROUTES.map((r, i) => bindRoute(contract.getInfoList[i]!, () => r.body)),
];
