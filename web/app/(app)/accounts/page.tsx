import type { Metadata } from 'next';
import { AccountsManager } from '../../../components/accounts/accounts-manager.tsx';
import { listAccounts } from '../../../server/accounts/service.ts';
import { getContext } from '../../../server/context.ts';
import { requireUser } from '../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Accounts' };

const connectErrors: Record<string, string> = {
  access_denied: 'Google sign-in was cancelled, so YouTube was not connected.',
};

export default async function AccountsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await requireUser();
  const params = await searchParams;
  const accounts = await listAccounts(await getContext(), user.id);
  let notice: { kind: 'ok' | 'error' | 'info'; text: string } | undefined;
  if (params.error)
    notice = {
      kind: 'error',
      text: connectErrors[params.error] ?? `The account could not be connected (${params.error}).`,
    };
  else if (params.connected) notice = { kind: 'ok', text: 'Your YouTube channel is connected.' };
  else if (params.welcome && accounts.length === 0)
    notice = {
      kind: 'info',
      text: 'Welcome to Postwave! Start by connecting the first account you want to post to.',
    };
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Accounts</h1>
          <p>The channels and profiles Postwave publishes to.</p>
        </div>
      </div>
      <AccountsManager accounts={accounts} notice={notice} />
    </div>
  );
}
