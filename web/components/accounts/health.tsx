import { accountHealthHints } from '@postwave/shared/error-hints';
import Link from 'next/link';
import { Icon, type IconName } from '#components/icons.tsx';
import { type AccountSummary, accountName, platformName } from '#components/lib/platforms.ts';

type Health = AccountSummary['health'];

/** What each health state says on a badge, and what the user should do about it (the API's `healthHint`). */
export const healthCopy: Record<Health, { label: string; badge: string; icon: IconName; advice: string }> = {
  ok: { label: 'Working', badge: 'badge-ok', icon: 'check', advice: '' },
  expiring: {
    label: 'Expiring soon',
    badge: 'badge-needs',
    icon: 'clock',
    advice: accountHealthHints.expiring,
  },
  needs_reconnect: {
    label: 'Needs reconnect',
    badge: 'badge-danger',
    icon: 'unplug',
    advice: accountHealthHints.needs_reconnect,
  },
  unreachable: {
    label: 'Unreachable',
    badge: 'badge-needs',
    icon: 'warning',
    advice: accountHealthHints.unreachable,
  },
};

export const isBadHealth = (health: Health) => health !== 'ok';

export function HealthBadge({ health }: { health: Health }) {
  const copy = healthCopy[health];
  return (
    <span className={`badge ${copy.badge}`} data-testid="health-badge" data-health={health}>
      <Icon name={copy.icon} size={14} />
      {copy.label}
    </span>
  );
}

/**
 * A warning for a post that is still to be published while one of its accounts is unhealthy,
 * naming the accounts and pointing to where they are fixed.
 */
export function AccountsAtRisk({ accounts }: { accounts: readonly AccountSummary[] }) {
  const bad = accounts.filter((a) => isBadHealth(a.health));
  if (bad.length === 0) return null;
  return (
    <div className="alert alert-warn" role="status" data-testid="accounts-at-risk">
      <p>
        <Icon name="warning" size={16} />{' '}
        {bad.length === 1
          ? 'An account of this post needs attention'
          : 'Accounts of this post need attention'}
        :{' '}
        {bad
          .map(
            (a) =>
              `${accountName(a)} on ${platformName(a.platform)} (${healthCopy[a.health].label.toLowerCase()})`,
          )
          .join(', ')}
        . It may fail to publish there. <Link href="/accounts">Check your accounts</Link>.
      </p>
    </div>
  );
}
