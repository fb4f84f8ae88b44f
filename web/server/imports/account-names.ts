import type { ProblemIssue } from '@postwave/shared';
import type { AccountRow } from '#server/accounts/repository.ts';
import { platformName } from '../../components/lib/platforms.ts';

/**
 * How an import report names an account: its label and handle on its platform ("Company news
 * (@news on Telegram)"), as the person sees it in the app, never an internal id (issue 30).
 */
export function describeAccount(
  account: Pick<AccountRow, 'label' | 'username' | 'platformAccountId' | 'platform'>,
): string {
  const handle = account.username
    ? account.username.startsWith('@') || account.username.includes('.')
      ? account.username
      : `@${account.username}`
    : account.platformAccountId;
  const on = `${handle} on ${platformName(account.platform)}`;
  return account.label && account.label !== handle ? `${account.label} (${on})` : on;
}

/**
 * The row's issues with every account id in a message replaced by the account's name, and the
 * account named up front when an issue is about one account but its message does not say which.
 * `accountId` stays on the issue for programs.
 */
export function nameAccountsInIssues(issues: ProblemIssue[], accounts: AccountRow[]): ProblemIssue[] {
  if (issues.length === 0) return issues;
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return issues.map((issue) => {
    let message = issue.message;
    for (const [id, account] of byId) {
      if (message.includes(id)) message = message.replaceAll(id, describeAccount(account));
    }
    const account = issue.accountId ? byId.get(issue.accountId) : undefined;
    if (account) {
      const name = describeAccount(account);
      if (!message.includes(name)) message = `${name}: ${message}`;
    }
    return message === issue.message ? issue : { ...issue, message };
  });
}
