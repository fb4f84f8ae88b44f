import { type AccountSummary, accountName, platformMeta } from './lib/platforms.ts';

export function PlatformMark({ platform }: { platform: string }) {
  const meta = platformMeta(platform);
  return (
    <span className="platform-mark" style={{ background: meta.color }} title={meta.name} aria-hidden="true">
      {meta.mark}
    </span>
  );
}

/** The account's picture (or initial) with its platform's mark in the corner. */
export function AccountAvatar({
  account,
  size = 'md',
}: {
  account: Pick<AccountSummary, 'platform' | 'profilePicture' | 'label' | 'username' | 'platformAccountId'>;
  size?: 'sm' | 'md';
}) {
  const name = accountName(account);
  return (
    <span className={size === 'sm' ? 'avatar avatar-sm' : 'avatar'}>
      {account.profilePicture ? (
        // biome-ignore lint/performance/noImgElement: remote avatars from arbitrary platform hosts
        <img src={account.profilePicture} alt="" referrerPolicy="no-referrer" />
      ) : (
        <span className="avatar-fallback" aria-hidden="true">
          {name.replace(/^[@#]/, '').slice(0, 1).toUpperCase() || '?'}
        </span>
      )}
      <PlatformMark platform={account.platform} />
    </span>
  );
}
