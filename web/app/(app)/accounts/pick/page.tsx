import type { Metadata } from 'next';
import { AccountAvatar } from '#components/account-avatar.tsx';
import { getPendingConnection } from '#server/accounts/oauth-picker.ts';
import { getContext } from '#server/context.ts';
import { requireUser } from '#server/ui/session.ts';

export const metadata: Metadata = { title: 'Choose accounts', referrer: 'no-referrer' };

/**
 * One login reached several pages, organizations or profiles: the user ticks the ones to connect,
 * each becoming one account. A plain form, so it works by keyboard and without scripts.
 */
export default async function PickAccountsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const user = await requireUser();
  const params = await searchParams;
  const pending = params.pending
    ? await getPendingConnection(await getContext(), user.workspaceId, params.pending)
    : undefined;
  if (!pending) {
    return (
      <div className="page">
        <div className="page-head">
          <h1>Choose accounts</h1>
        </div>
        <p className="alert alert-error" role="alert">
          This choice expired or was already made. <a href="/accounts">Connect the account again</a>.
        </p>
      </div>
    );
  }
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Choose {pending.platformName} accounts</h1>
          <p>
            Your {pending.platformName} login can publish to several accounts. Each one you choose is
            connected separately.
          </p>
        </div>
      </div>
      {params.error === 'nothing_chosen' && (
        <p className="alert alert-error" role="alert">
          Choose at least one account to connect.
        </p>
      )}
      <form
        method="post"
        action={`/api/v1/accounts/connect/${encodeURIComponent(pending.platform)}/pick`}
        className="card"
      >
        <input type="hidden" name="pending" value={params.pending} />
        <fieldset className="card-body stack" style={{ border: 0, margin: 0 }}>
          <legend className="muted small">Accounts this login reaches</legend>
          <ul className="list" aria-label="Accounts to connect">
            {pending.choices.map((choice, index) => (
              <li key={choice.platformAccountId}>
                <label className="checkbox" data-testid="pick-choice">
                  <input
                    type="checkbox"
                    name="accountIds"
                    value={choice.platformAccountId}
                    defaultChecked={pending.choices.length <= 3 || index === 0}
                  />
                  <AccountAvatar
                    size="sm"
                    account={{
                      platform: pending.platform,
                      platformAccountId: choice.platformAccountId,
                      label: choice.name,
                      ...(choice.username ? { username: choice.username } : {}),
                      ...(choice.avatarUrl ? { profilePicture: choice.avatarUrl } : {}),
                    }}
                  />
                  <span>
                    <strong>{choice.name}</strong>
                    {choice.kind ? ` · ${choice.kind}` : ''}
                    {choice.username ? ` · ${choice.username}` : ''}
                    {choice.connected ? ' · already connected (its access is renewed)' : ''}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <div className="row">
            <button type="submit" className="btn btn-primary">
              Connect selected accounts
            </button>
            <a className="btn btn-ghost" href="/accounts">
              Cancel
            </a>
          </div>
        </fieldset>
      </form>
    </div>
  );
}
