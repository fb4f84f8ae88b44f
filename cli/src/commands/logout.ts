import { type Context, type OptionSpecs, unexpectedArgument } from '../command.ts';
import { deleteConfig } from '../config.ts';

export const summary = 'forget the stored token';
export const synopsis = [['logout', 'forget the token stored on this computer']] as const;

export const help = `Usage: postwave logout

Deletes the stored token from this computer. Revoke it in the web app (API tokens) to
invalidate it everywhere.
`;

export const options = {} as const satisfies OptionSpecs;

export async function run({ values, args, io }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('logout', args[0]!);
  deleteConfig(io.env);
  io.stdout(
    values.json ? `${JSON.stringify({ loggedOut: true })}\n` : 'Logged out: the stored token is deleted.\n',
  );
  return 0;
}
