import { type AccountSummary, accountName, manifestFor } from '#components/lib/platforms.ts';

/** The platform's icon on its brand colour; decorative, so the surrounding text names the platform. */
export function PlatformMark({ platform }: { platform: string }) {
  const manifest = manifestFor(platform);
  if (!manifest) {
    return (
      <span className="platform-mark" style={{ background: '#64748b' }} title={platform} aria-hidden="true">
        {platform.slice(0, 2).toUpperCase()}
      </span>
    );
  }
  return (
    <span
      className="platform-mark"
      style={{ background: manifest.color }}
      title={manifest.name}
      aria-hidden="true"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon is a constant of the SDK's manifest, not user input
      dangerouslySetInnerHTML={{ __html: manifest.icon }}
    />
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
