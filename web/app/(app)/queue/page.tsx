import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState } from '../../../components/empty-state.tsx';
import { timeZones } from '../../../components/lib/time.ts';
import { QueueBoard } from '../../../components/queue/queue-board.tsx';
import { listAccounts } from '../../../server/accounts/list-accounts.ts';
import { getBestTimes } from '../../../server/analytics/get-best-times.ts';
import { getContext } from '../../../server/context.ts';
import { getQueue } from '../../../server/queue/service.ts';
import { requireUser } from '../../../server/ui/session.ts';
import '../../../components/queue/queue.css';

export const metadata: Metadata = { title: 'Queue' };

export default async function QueuePage() {
  const user = await requireUser();
  const ctx = await getContext();
  const accounts = await listAccounts(ctx, user.workspaceId);
  const [queues, bestTimes] = await Promise.all([
    Promise.all(accounts.map((a) => getQueue(ctx, user.workspaceId, a.id))),
    Promise.all(accounts.map((a) => getBestTimes(ctx, user.workspaceId, a.id))),
  ]);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Queue</h1>
          <p>
            Posting slots per account. “Add to queue” in the composer gives a post the next free slot of every
            account it goes to.
          </p>
        </div>
        <Link href="/compose" className="btn btn-primary">
          New post
        </Link>
      </div>
      {accounts.length === 0 ? (
        <EmptyState
          icon="queue"
          title="No accounts yet"
          action={
            <Link href="/accounts" className="btn btn-primary">
              Connect an account
            </Link>
          }
        >
          Connect an account to give it posting slots.
        </EmptyState>
      ) : (
        accounts.map((account, i) => (
          <QueueBoard
            key={account.id}
            account={account}
            initial={queues[i]!}
            zones={timeZones()}
            suggested={{ timezone: bestTimes[i]!.timezone, slots: bestTimes[i]!.slots }}
          />
        ))
      )}
    </div>
  );
}
