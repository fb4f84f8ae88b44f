import type { Context, OptionSpecs } from '../command.ts';
import { version } from '../version.ts';

// No summary, synopsis or help: `postwave version` is the quiet twin of --version.

export const options = {} as const satisfies OptionSpecs;

export async function run({ io }: Context<typeof options>): Promise<number> {
  io.stdout(`${version}\n`);
  return 0;
}
