import type { AccountRow } from '#server/accounts/repository.ts';
import { describeAccount } from './account-names.ts';

/** How an import names an account: its id, or its handle (`@news`, `news`, `telegram:@news`). */
export type AccountMatch =
  | { account: AccountRow }
  | { error: 'account_not_found' }
  | { error: 'account_ambiguous'; candidates: string[] };

const bare = (handle: string) => handle.trim().replace(/^@/, '').toLowerCase();
/** `dana` of `dana@host` (a fediverse handle); the whole handle when it names no instance. */
const localPart = (handle: string) => handle.split('@')[0]!;

/**
 * Resolves references against the user's accounts. A handle matches an account's username or
 * platform account id (case-insensitive, with or without `@`); `<platform>:<handle>` narrows it
 * to one platform when the same handle exists on two. A handle without an instance matches a
 * fediverse handle with one (`@dana` finds `@dana@social.example`) when no account has it exactly
 * and only one account has it on some instance (issue 30); otherwise the reference is ambiguous
 * and the error lists the candidates by label and handle.
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
    const onPlatform = accounts.filter(
      (a) => !platform || a.platform === platform || !accounts.some((b) => b.platform === platform),
    );
    const handles = (a: AccountRow) =>
      [a.platformAccountId, ...(a.username !== null ? [a.username] : [])].map(bare);
    let found = onPlatform.filter((a) => handles(a).includes(handle));
    if (found.length === 0 && !handle.includes('@')) {
      found = onPlatform.filter((a) => handles(a).some((h) => h.includes('@') && localPart(h) === handle));
    }
    if (found.length === 1) return { account: found[0]! };
    if (found.length === 0) return { error: 'account_not_found' };
    return { error: 'account_ambiguous', candidates: found.map(describeAccount) };
  };
}
