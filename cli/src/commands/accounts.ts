import { type Context, type OptionSpecs, unexpectedArgument } from '../command.ts';
import { table } from '../format.ts';
import { Accounts } from '../responses.ts';

export const summary = 'list your connected social accounts';
export const synopsis = [['accounts', 'list your connected social accounts']] as const;

export const help = `Usage: postwave accounts [--json]

Lists your connected accounts with the ids that --account takes.
`;

export const options = {} as const satisfies OptionSpecs;

export async function run({ args, api, print }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('accounts', args[0]!);
  // The Scheduler's accounts carry more (health, status); the CLI shows the SDK's public part.
  const { accounts } = await api().request('GET', '/api/v1/accounts', Accounts);
  const text = accounts.length
    ? table(
        ['ID', 'PLATFORM', 'TARGET', 'LABEL'],
        accounts.map((a) => [a.id, a.platform, a.username ?? a.platformAccountId, a.label ?? '']),
      )
    : 'No accounts connected yet: connect one in the web app.\n';
  print({ accounts }, text);
  return 0;
}
