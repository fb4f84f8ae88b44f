import { type Context, type OptionSpecs, unexpectedArgument } from '../command.ts';
import { WhoAmI } from '../responses.ts';

export const summary = 'show the signed-in user and server';
export const synopsis = [['whoami', 'show the signed-in user and server']] as const;

export const help = `Usage: postwave whoami [--json]

Shows the server, the user and the token in use.
`;

export const options = {} as const satisfies OptionSpecs;

export async function run({ args, api, print }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('whoami', args[0]!);
  const client = api();
  const me = await client.request('GET', '/api/cli/whoami', WhoAmI);
  print(
    { server: client.server, ...me },
    `${me.user.name ? `${me.user.name} <${me.user.email}>` : me.user.email} on ${client.server}\n` +
      (me.token
        ? `Token: ${me.token.name}${me.token.expiresAt ? `, expires ${me.token.expiresAt}` : ''}\n`
        : ''),
  );
  return 0;
}
