import { type Context, type OptionSpecs, UsageError } from '../command.ts';
import { overview } from '../overview.ts';

export const summary = 'help for a command';

export const options = {} as const satisfies OptionSpecs;

export const positional = { kind: 'word', name: 'command', words: 'commands' } as const;

/** `postwave help <command>`: that command's help, else the overview. */
export async function run({ args, io, commands }: Context<typeof options>): Promise<number> {
  const [topic, ...extra] = args;
  const command = topic !== undefined && Object.hasOwn(commands, topic) ? commands[topic] : undefined;
  if (extra.length || (topic !== undefined && !command))
    throw new UsageError(`Unknown command "${args.join(' ')}".\n\n${overview(commands)}`);
  io.stdout(command?.help ?? overview(commands));
  return 0;
}
