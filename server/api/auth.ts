import * as contract from '@/lib/contracts/routes/auth';
import { bindRoute, StatusReply } from '../http/route';
import { registerProvider } from '../domain/providers/register-provider';
import { loginProvider } from '../domain/providers/login-provider';

export const authRoutes = [
  bindRoute(contract.register, async ({ app, body }) => {
    await registerProvider(app, body);
    return new StatusReply(201);
  }),
  bindRoute(contract.login, ({ app, body }) => loginProvider(app, body)),
];
