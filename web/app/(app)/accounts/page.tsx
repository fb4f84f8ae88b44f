import type { Metadata } from 'next';
import { AccountsManager } from '#components/accounts/accounts-manager.tsx';
import { accountName, platformName } from '#components/lib/platforms.ts';
import { configuredOAuthPlatforms } from '#server/accounts/oauth-availability.ts';
import { listAccounts } from '#server/accounts/service.ts';
import { getContext } from '#server/context.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Accounts' };

/*
 * What the connect flow's outcome codes mean for the user. The `message` parameter is not shown:
 * anyone can craft a link to this page, so the text comes from here only.
 */
const connectErrors: Record<string, string> = {
  access_denied: 'Sign-in with the platform was cancelled, so no account was connected.',
  invalid_state:
    'That connection link expired, was already used, or was started by someone else. Start connecting again.',
  credentials_invalid:
    'The platform refused the sign-in. Try again; if it keeps failing, the server’s app settings for this platform may be wrong.',
  no_accounts:
    'That login has no account Postwave can publish to (for example no page you manage, or no professional account).',
  account_mismatch:
    'You signed in as a different account than the one you are reconnecting. Sign in as that account and reconnect again.',
  provider_error: 'The platform could not be reached or answered with an error. Try again in a moment.',
};

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
  if (error)
    notice = {
      kind: 'error',
      text: connectErrors[error] ?? 'The account could not be connected. Try again.',
    };
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
