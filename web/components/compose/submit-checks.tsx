import { type AccountSummary, accountName } from '#components/lib/platforms.ts';
import type { ComposerState } from './composer-state.ts';

/**
 * What stands between the post and the publish button, next to that button (issue 30): each
 * selected account's first problem, so a phone user does not have to scroll past the previews to
 * the Checks panel to learn why Publish is disabled. The panel keeps the details.
 */
export function SubmitChecks({ state, accounts }: { state: ComposerState; accounts: AccountSummary[] }) {
  const problems = accounts.flatMap((account) => {
    if (!state.selected.includes(account.id)) return [];
    const first = state.results[account.id]?.errors[0];
    return first ? [{ account, message: first.message }] : [];
  });
  if (problems.length === 0) return null;
  return (
    <ul
      className="submit-checks small"
      data-testid="submit-checks"
      aria-label="Problems to fix before publishing"
    >
      {problems.map(({ account, message }) => (
        <li key={account.id}>
          <strong>{accountName(account)}:</strong> {message}
        </li>
      ))}
    </ul>
  );
}
