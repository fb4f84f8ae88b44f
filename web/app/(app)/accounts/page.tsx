import type { Metadata } from 'next';
import { AccountsManager } from '#components/accounts/accounts-manager.tsx';
import { accountName, platformName } from '#components/lib/platforms.ts';
import { listAccounts } from '#server/accounts/service.ts';
import { getContext } from '#server/context.ts';
import { requireUser } from '#server/ui/session.ts';
import { configuredOAuthPlatforms } from './oauth-availability.ts';

export const metadata: Metadata = { title: 'Accounts' };

const connectErrors: Record<string, string> = {
  access_denied: 'Sign-in with the platform was cancelled, so no account was connected.',
};

export default async function AccountsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await requireUser();
  const params = await searchParams;
  const ctx = await getContext();
  const accounts = await listAccounts(ctx, user.id);
  let notice: { kind: 'ok' | 'error' | 'info'; text: string } | undefined;
  if (params.error)
    notice = {
      kind: 'error',
      text: connectErrors[params.error] ?? `The account could not be connected (${params.error}).`,
    };
  else if (params.connected) {
    const account = accounts.find((a) => a.id === params.connected);
    notice = {
      kind: 'ok',
      text: account
        ? `Connected ${accountName(account)} on ${platformName(account.platform)}.`
        : 'The account is connected.',
    };
  } else if (params.welcome && accounts.length === 0)
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
      <AccountsManager
        accounts={accounts}
        notice={notice}
        oauthConfigured={configuredOAuthPlatforms(ctx.config.env)}
      />
    </div>
  );
}
