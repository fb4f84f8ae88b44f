import { ProblemError } from '@postwave/shared';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  type CliAuthorizeParams,
  cliParamsQuery,
  parseCliAuthorizeParams,
} from '#server/cli-auth/service.ts';
import { browserUser, signInLocation } from '#server/cli-auth/session.ts';
import { getContext } from '#server/context.ts';
import { workspaceChoices } from '#server/workspaces/pick.ts';
import { CenteredCard, ConsentForm } from '../../../components/consent-card.tsx';
import { WorkspacePicker } from '../../../components/workspace-picker.tsx';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Connect the Postwave CLI' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CliAuthorizePage({ searchParams }: { searchParams: SearchParams }) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === 'string') query.set(k, v);
  let params: CliAuthorizeParams;
  try {
    params = parseCliAuthorizeParams(query);
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    // A page cannot answer 400: the authorize route, which makes the same check, shows the error
    // card with that status.
    redirect(`/api/cli/authorize?${query}`);
  }
  const ctx = await getContext();
  const user = await browserUser(ctx, (await cookies()).toString() || null);
  if (!user) redirect(signInLocation(ctx, `/cli/authorize?${cliParamsQuery(params)}`));
  const hidden: Record<string, string> = Object.fromEntries(new URLSearchParams(cliParamsQuery(params)));
  const port = new URL(params.redirectUri).port;
  const workspaces = await workspaceChoices(ctx, user.id, user.workspaceId);
  return (
    <CenteredCard wide>
      <ConsentForm
        action="/api/cli/authorize/decision"
        title="Connect the Postwave CLI?"
        description={
          <>
            The device <strong>{params.deviceName ?? 'an unnamed device'}</strong> asks for a CLI token that
            acts as you.
          </>
        }
        permissions={[
          'List your connected accounts',
          'Create, schedule and publish posts',
          'Edit and delete your posts',
        ]}
        hidden={hidden}
        signedInAs={user.email}
      >
        <WorkspacePicker {...workspaces} />
        <p className="consent-note">
          It is waiting on this computer at port <code>{port}</code>. Only approve if you just ran{' '}
          <code>postwave login</code>. You can revoke the token at any time under Settings → CLI and API
          tokens.
        </p>
      </ConsentForm>
    </CenteredCard>
  );
}
