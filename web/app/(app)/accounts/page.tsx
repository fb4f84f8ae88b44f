import type { Metadata } from 'next';
import { AccountsManager } from '#components/accounts/accounts-manager.tsx';
import { accountName, platformName } from '#components/lib/platforms.ts';
import { connectErrorHint } from '#server/accounts/connect-error.ts';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { configuredOAuthPlatforms } from '#server/accounts/oauth-availability.ts';
import { getContext } from '#server/context.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Accounts' };

export default async function AccountsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const params = await searchParams;
  const ctx = await getContext();
  const accounts = await listAccounts(ctx, user.workspaceId);
  let notice: { kind: 'ok' | 'error' | 'info'; text: string } | undefined;
  const error = [params.error].flat()[0];
  const connected = [params.connected ?? []].flat();
  // The hint of the flow's outcome code: the link's own `message` and `hint` are not shown, since
  // anyone can craft a link to this page.
  if (error) notice = { kind: 'error', text: connectErrorHint(error) };
  else if (connected.length > 0) {
    const named = connected.flatMap((id) => accounts.filter((a) => a.id === id));
    notice = {
      kind: 'ok',
      text:
        named.length > 0
          ? `Connected ${named.map((a) => `${accountName(a)} on ${platformName(a.platform)}`).join(', ')}.`
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
