import Link from 'next/link';
import { Icon } from '#components/icons.tsx';
import { platformManifests } from '#components/lib/platforms.ts';

const names = platformManifests.map((m) => m.name);
const platformList =
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');

/** What the composer shows before any account is connected. */
export function NoAccounts() {
  return (
    <div className="card">
      <div className="empty">
        <span className="empty-icon" aria-hidden="true">
          <Icon name="pen" size={24} />
        </span>
        <h2>Connect an account to start posting</h2>
        <p>Postwave publishes to the accounts you connect: {platformList}.</p>
        <Link href="/accounts" className="btn btn-primary">
          Connect an account
        </Link>
      </div>
    </div>
  );
}
