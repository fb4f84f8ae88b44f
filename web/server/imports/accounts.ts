import type { AccountRow } from '#server/accounts/repository.ts';

/** How an import names an account: its id, or its handle (`@news`, `news`, `telegram:@news`). */
export type AccountMatch = { account: AccountRow } | { error: 'account_not_found' | 'account_ambiguous' };

const bare = (handle: string) => handle.trim().replace(/^@/, '').toLowerCase();

/**
 * Resolves references against the user's accounts. A handle matches an account's username or
 * platform account id (case-insensitive, with or without `@`); `<platform>:<handle>` narrows it
 * to one platform when the same handle exists on two.
 */
export function accountMatcher(accounts: AccountRow[]) {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return (ref: string): AccountMatch => {
    const direct = byId.get(ref);
    if (direct) return { account: direct };
    const colon = ref.indexOf(':');
    const platform = colon > 0 ? ref.slice(0, colon) : undefined;
    const handle = bare(
      platform && accounts.some((a) => a.platform === platform) ? ref.slice(colon + 1) : ref,
    );
    const found = accounts.filter(
      (a) =>
        (!platform || a.platform === platform || !accounts.some((b) => b.platform === platform)) &&
        (bare(a.platformAccountId) === handle || (a.username !== null && bare(a.username) === handle)),
    );
    if (found.length === 1) return { account: found[0]! };
    return { error: found.length ? 'account_ambiguous' : 'account_not_found' };
  };
}
