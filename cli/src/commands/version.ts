import { type Context, type OptionSpecs, UsageError } from '../command.ts';
import { version } from '../version.ts';

// No summary, synopsis or help: `postwave version` is the quiet twin of --version.

export const options = {} as const satisfies OptionSpecs;

export async function run({ args, print }: Context<typeof options>): Promise<number> {
  if (args.length) throw new UsageError('Usage: postwave version');
  print({ version }, `${version}\n`);
  return 0;
}
