import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { type AccountSummary, accountHandle, accountName, platformName } from '#components/lib/platforms.ts';

const tabId = (key: string) => `version-tab-${key}`;
const panelId = (key: string) => `version-panel-${key}`;

/**
 * The base post and one tab per selected account (its own version). A WAI-ARIA tablist: arrow
 * keys, Home and End move between tabs and select them; only the selected tab is in the tab order.
 */
export function VersionTabs({
  accounts,
  active,
  edited,
  onSelect,
  children,
}: {
  accounts: AccountSummary[];
  active: string;
  edited: (accountId: string) => boolean;
  onSelect: (key: string) => void;
  children: ReactNode;
}) {
  const keys = ['base', ...accounts.map((a) => a.id)];
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const current = keys.includes(active) ? active : 'base';
  const onKeyDown = (event: KeyboardEvent) => {
    const index = keys.indexOf(current);
    const next =
      event.key === 'ArrowRight'
        ? keys[(index + 1) % keys.length]
        : event.key === 'ArrowLeft'
          ? keys[(index - 1 + keys.length) % keys.length]
          : event.key === 'Home'
            ? keys[0]
            : event.key === 'End'
              ? keys.at(-1)
              : undefined;
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    tabs.current.get(next)?.focus();
  };
  const tab = (key: string, content: ReactNode) => (
    <button
      key={key}
      ref={(el) => {
        if (el) tabs.current.set(key, el);
        else tabs.current.delete(key);
      }}
      type="button"
      role="tab"
      id={tabId(key)}
      className="version-tab"
      aria-selected={key === current}
      // Only the shown panel exists, so only its tab points at it.
      aria-controls={key === current ? panelId(key) : undefined}
      tabIndex={key === current ? 0 : -1}
      onClick={() => onSelect(key)}
    >
      {content}
    </button>
  );
  return (
    <div className="versions">
      <div role="tablist" aria-label="Versions" className="version-tabs" onKeyDown={onKeyDown}>
        {tab('base', <span className="chip-name">All accounts</span>)}
        {accounts.map((account) =>
          tab(
            account.id,
            <>
              <AccountAvatar account={account} size="sm" />
              <span className="chip-text">
                <span className="chip-name">
                  {accountName(account)}
                  {edited(account.id) && <span className="badge badge-edited">Edited</span>}
                </span>
                <span className="chip-meta">
                  {platformName(account.platform)} · {accountHandle(account)}
                </span>
              </span>
            </>,
          ),
        )}
      </div>
      <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} className="version-panel">
        {children}
      </div>
    </div>
  );
}
