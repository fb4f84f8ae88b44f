import { Router } from 'express';
import type { AccountsStore } from '../accounts.ts';

export function accountsRouter(accounts: AccountsStore): Router {
  const router = Router();
  router.get('/api/v1/accounts', (_req, res) => {
    res.json({ accounts: accounts.list() });
  });
  return router;
}
