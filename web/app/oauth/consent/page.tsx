import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { browserUser } from '../../../server/cli-auth/session.ts';
import { getContext } from '../../../server/context.ts';
import { ConsentCard, ErrorCard } from '../../../server/oauth/consent-ui.tsx';
import {
  type AuthorizeRequest,
  authorizeQuery,
  OAuthError,
  parseAuthorizeRequest,
} from '../../../server/oauth/service.ts';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Authorize an application' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const scopeText: Record<string, string> = {
  mcp: 'Use Postwave as you through MCP: list your accounts; create, schedule, publish, update and delete posts; add media.',
};

export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === 'string') query.set(k, v);
  const ctx = await getContext();
  let request: AuthorizeRequest;
  try {
    request = await parseAuthorizeRequest(ctx, query);
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return <ErrorCard title="This authorization request cannot continue" message={error.message} />;
  }
  const user = await browserUser(ctx, (await cookies()).toString() || null);
  if (!user) {
    const callbackUrl = new URL(`/oauth/consent?${authorizeQuery(request)}`, ctx.config.appUrl).toString();
    redirect(`/api/auth/signin?${new URLSearchParams({ callbackUrl })}`);
  }
  const redirectUrl = new URL(request.redirectUri);
  const redirectHost = redirectUrl.host || redirectUrl.protocol;
  return (
    <ConsentCard
      title={`Allow ${request.client.name ?? 'an unnamed application'} to use your Postwave account?`}
      action="/api/oauth/authorize/decision"
      hidden={Object.fromEntries(new URLSearchParams(authorizeQuery(request)))}
      signedInAs={user.email}
    >
      <p>
        <strong>{request.client.name ?? 'An unnamed application'}</strong>
        {request.client.source === 'metadata_document' ? ` (${request.client.id})` : ''} will be sent back to{' '}
        <strong>{redirectHost}</strong>.
      </p>
      <p>It asks for:</p>
      <ul>
        {request.scope.split(' ').map((s) => (
          <li key={s}>
            <code>{s}</code>: {scopeText[s] ?? s}
          </li>
        ))}
      </ul>
      <p>
        Access tokens last one hour and are refreshed; you can sign out the application by revoking its
        tokens.
      </p>
    </ConsentCard>
  );
}
