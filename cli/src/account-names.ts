import { type Api, ApiError } from './api.ts';
import { type Account, Accounts } from './responses.ts';

/** What the web app calls an account: its label, else its handle, else the platform's id for it. */
export function accountName(account: Account): string {
  return account.label || account.username || account.platformAccountId;
}

/**
 * Account ids to names, from one GET /api/v1/accounts; an id not listed (a deleted account), or
 * every id when the list is refused, shows as itself: names help reading, they are not the answer.
 */
export async function accountNames(api: Api): Promise<(id: string) => string> {
  let names: Map<string, string>;
  try {
    const { accounts } = await api.request('GET', '/api/v1/accounts', Accounts);
    names = new Map(accounts.map((a) => [a.id, accountName(a)]));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    names = new Map();
  }
  return (id) => names.get(id) ?? id;
}
