import { ProblemError } from '@postwave/shared';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  type CliAuthorizeParams,
  cliParamsQuery,
  parseCliAuthorizeParams,
} from '../../../server/cli-auth/service.ts';
import { browserUser } from '../../../server/cli-auth/session.ts';
import { getContext } from '../../../server/context.ts';
import { ConsentCard, ErrorCard } from '../../../server/oauth/consent-ui.tsx';

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
    return (
      <ErrorCard
        title="This CLI sign-in link is not valid"
        message={`${error.message}. Run postwave login again.`}
      />
    );
  }
  const ctx = await getContext();
  const user = await browserUser(ctx, (await cookies()).toString() || null);
  if (!user) {
    const callbackUrl = new URL(`/cli/authorize?${cliParamsQuery(params)}`, ctx.config.appUrl).toString();
    redirect(`/api/auth/signin?${new URLSearchParams({ callbackUrl })}`);
  }
  const hidden: Record<string, string> = Object.fromEntries(new URLSearchParams(cliParamsQuery(params)));
  const port = new URL(params.redirectUri).port;
  return (
    <ConsentCard
      title="Connect the Postwave CLI?"
      action="/api/cli/authorize/decision"
      hidden={hidden}
      signedInAs={user.email}
    >
      <p>
        The device <strong>{params.deviceName ?? 'an unnamed device'}</strong> asks for a CLI token that can
        act as you: list your accounts, and create, schedule, publish and delete posts.
      </p>
      <p>
        It is waiting on this computer at port <code>{port}</code>. Only approve if you just ran{' '}
        <code>postwave login</code>. You can revoke the token at any time under API tokens.
      </p>
    </ConsentCard>
  );
}
