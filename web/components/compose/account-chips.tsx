import type { Dispatch } from 'react';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import type { ComposerAction } from './composer-state.ts';

/**
 * Toggle buttons choosing the target accounts. Each shows the platform icon, the account's label,
 * the platform's name and the handle, so two chats with the same title are told apart.
 */
export function AccountChips({
  accounts,
  selected,
  dispatch,
}: {
  accounts: AccountSummary[];
  selected: string[];
  dispatch: Dispatch<ComposerAction>;
}) {
  return (
    <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0, gap: 10 }}>
      <legend className="section-title">Post to</legend>
      <div className="account-chips">
        {accounts.map((account) => {
          const name = accountName(account);
          const handle = accountHandle(account);
          return (
            <button
              type="button"
              key={account.id}
              className="account-chip"
              data-testid={`chip-${account.id}`}
              aria-pressed={selected.includes(account.id)}
              onClick={() => dispatch({ type: 'toggleAccount', accountId: account.id })}
            >
              <AccountAvatar account={account} size="sm" />
              <span className="chip-text">
                <span className="chip-name">{name}</span>
                <span className="chip-meta">
                  {platformName(account.platform)}
                  {handle !== name && ` · ${handle}`}
                </span>
              </span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
