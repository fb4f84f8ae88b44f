import type { Metadata } from 'next';
import { FeedsManager } from '../../../components/transfer/feeds-manager.tsx';
import { listAccounts } from '../../../server/accounts/list-accounts.ts';
import { getContext } from '../../../server/context.ts';
import { listFeeds } from '../../../server/feeds/service.ts';
import { requireUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Feeds' };

export default async function FeedsPage() {
  const user = await requireUser();
  const ctx = await getContext();
  const [feeds, accounts] = await Promise.all([
    listFeeds(ctx, user.workspaceId),
    listAccounts(ctx, user.workspaceId),
  ]);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Feeds</h1>
          <p>Turn new articles of an RSS or Atom feed into posts.</p>
        </div>
      </div>
      <section className="card" aria-label="Feeds">
        <div className="card-body">
          <FeedsManager
            feeds={feeds}
            accounts={accounts.map((a) => ({
              id: a.id,
              platform: a.platform,
              name: a.label ?? a.username ?? a.platformAccountId,
            }))}
            timezone={user.timezone}
          />
        </div>
      </section>
    </div>
  );
}
