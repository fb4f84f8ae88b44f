import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { browserUser, signInLocation } from '#server/cli-auth/session.ts';
import { getContext } from '#server/context.ts';
import {
  type AuthorizeRequest,
  authorizeQuery,
  parseAuthorizeRequest,
} from '#server/oauth/authorize-request.ts';
import { OAuthError } from '#server/oauth/errors.ts';
import { workspaceChoices } from '#server/workspaces/pick.ts';
import { CenteredCard, ConsentForm } from '../../../components/consent-card.tsx';
import { WorkspacePicker } from '../../../components/workspace-picker.tsx';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Authorize an application' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const scopePermissions: Record<string, string[]> = {
  mcp: [
    'List your connected accounts',
    'Create, schedule, publish, update and delete your posts',
    'Add media to your posts',
  ],
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
    // A page cannot answer 400: the authorization endpoint, which makes the same check, shows
    // the error card with that status.
    redirect(`/api/oauth/authorize?${query}`);
  }
  const user = await browserUser(ctx, (await cookies()).toString() || null);
  if (!user) redirect(signInLocation(ctx, `/oauth/consent?${authorizeQuery(request)}`));
  const workspaces = await workspaceChoices(ctx, user.id, user.workspaceId);
  const redirectUrl = new URL(request.redirectUri);
  const redirectHost = redirectUrl.host || redirectUrl.protocol;
  const name = request.client.name ?? 'An unnamed application';
  return (
    <CenteredCard wide>
      <ConsentForm
        action="/api/oauth/authorize/decision"
        title={`Allow ${request.client.name ?? 'an unnamed application'} to use your Postwave account?`}
        description={
          <>
            <strong>{name}</strong>
            {request.client.source === 'metadata_document' ? ` (${request.client.id})` : ''} wants to post for
            you through MCP and will be sent back to <strong>{redirectHost}</strong>.
          </>
        }
        permissions={request.scope.split(' ').flatMap((s) => scopePermissions[s] ?? [s])}
        hidden={Object.fromEntries(new URLSearchParams(authorizeQuery(request)))}
        signedInAs={user.email}
      >
        <WorkspacePicker {...workspaces} />
        <p className="consent-note">
          Anyone can register an application under any name: approve only if you started this connection
          yourself and you expect to be sent back to <strong>{redirectHost}</strong>.
        </p>
        <p className="consent-note">
          Access tokens last one hour and are refreshed. You can disconnect the application at any time under
          Settings → Connected AI assistants.
        </p>
      </ConsentForm>
    </CenteredCard>
  );
}
