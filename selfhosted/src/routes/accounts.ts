import { Router } from 'express';
import type { AccountsStore } from '../accounts.ts';
import { type ApiRoutes, on } from '../api-routes.ts';

export function accountsRouter(routes: ApiRoutes, accounts: AccountsStore): Router {
  const router = Router();
  on(router, routes.listAccounts, (_req, res) => {
    res.json({ accounts: accounts.list() });
  });
  return router;
}
