import type { Dispatch } from 'react';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';
import type { ComposerAction } from './composer-state.ts';

/** Toggle buttons choosing the target accounts: platform icon, label and handle. */
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
              aria-pressed={selected.includes(account.id)}
              onClick={() => dispatch({ type: 'toggleAccount', accountId: account.id })}
            >
              <AccountAvatar account={account} size="sm" />
              {name}
              {handle !== name && <span className="muted small">{handle}</span>}
              <span className="sr-only"> on {platformName(account.platform)}</span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
