import type { Context, OptionSpecs } from '../command.ts';

export const summary = 'show the signed-in user and server';
export const synopsis = [['whoami', 'show the signed-in user and server']] as const;

export const help = `Usage: postwave whoami [--json]

Shows the server, the user and the token in use.
`;

export const options = {} as const satisfies OptionSpecs;

/**
 * OpenAPI `WhoAmI` (GET /api/cli/whoami, declared in web/server/cli-auth/schema.ts with the
 * Scheduler's token kinds): the fields the CLI prints.
 */
interface WhoAmI {
  user: { id: string; email: string; name: string | null };
  token: { id: string; kind: string; name: string; expiresAt: string | null } | null;
}

export async function run({ api, print }: Context<typeof options>): Promise<number> {
  const client = api();
  const me = await client.request<WhoAmI>('GET', '/api/cli/whoami');
  print(
    { server: client.server, ...me },
    `${me.user.name ? `${me.user.name} <${me.user.email}>` : me.user.email} on ${client.server}\n` +
      (me.token
        ? `Token: ${me.token.name}${me.token.expiresAt ? `, expires ${me.token.expiresAt}` : ''}\n`
        : ''),
  );
  return 0;
}
