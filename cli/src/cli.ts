import { parseArgs } from 'node:util';
import { ApiError, hintFor, Unreachable } from './api.ts';
import {
  type CommandList,
  type Context,
  globalOptions,
  type Io,
  type OptionSpec,
  type OptionSpecs,
  UsageError,
  type Values,
} from './command.ts';
import { commands } from './commands/index.ts';
import { overview } from './overview.ts';
import { connect } from './session.ts';
import { version } from './version.ts';

// The queue tests in web/test parse slots with the CLI's own parser.
export { parseSlots } from './commands/queue.ts';

/**
 * The options of every command, parsed in one pass: options may come before the command name
 * (`postwave --json accounts`); one command's option given to another is a usage error (run).
 */
const parseConfig = allOptions(commands);

export async function run(argv: string[], io: Io): Promise<number> {
  let parsed: { values: Values<OptionSpecs & typeof globalOptions>; positionals: string[] };
  try {
    // Typed per command: allOptions made sure every command's options are parsed as it declared them.
    parsed = parseArgs({
      args: argv,
      options: parseConfig,
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    io.stderr(`${(error as Error).message}\nRun postwave --help for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [name, ...args] = positionals;
  if (values.version) {
    io.stdout(values.json ? `${JSON.stringify({ version }, null, 2)}\n` : `${version}\n`);
    return 0;
  }
  if (!name) {
    (values.help ? io.stdout : io.stderr)(overview(commands));
    return values.help ? 0 : 2;
  }
  const command = Object.hasOwn(commands, name) ? (commands as CommandList)[name] : undefined;
  if (!command) {
    io.stderr(`Unknown command "${name}".\n\n${overview(commands)}`);
    return 2;
  }
  if (values.help && command.help) {
    io.stdout(command.help);
    return 0;
  }
  // parseArgs knew every command's options; this command takes only its own and the global ones.
  const foreign = Object.keys(values).find(
    (o) => !Object.hasOwn(globalOptions, o) && !Object.hasOwn(command.options, o),
  );
  if (foreign) {
    io.stderr(`postwave ${name} takes no --${foreign}.\nRun postwave ${name} --help for usage.\n`);
    return 2;
  }
  const context: Context<OptionSpecs> = {
    values,
    args,
    io,
    commands,
    api: (options) => connect(values.server, io.env, options?.needToken),
    print: (data, text) => io.stdout(values.json ? `${JSON.stringify(data, null, 2)}\n` : text),
  };
  try {
    return await command.run(context);
  } catch (error) {
    return report(error, values.json === true, io);
  }
}

/**
 * Exit 2 for usage errors, 1 for everything else (docs/cli.md, Exit codes); API errors with a hint
 * (and as JSON with --json).
 */
function report(error: unknown, json: boolean, io: Io): number {
  if (error instanceof UsageError) {
    io.stderr(`${error.message}\n`);
    return 2;
  }
  if (error instanceof ApiError) {
    if (json) io.stdout(`${JSON.stringify(error.body ?? { code: error.code, detail: error.message })}\n`);
    const hint = hintFor(error);
    io.stderr(`Error: ${error.message}${hint ? `\n${hint}` : ''}\n`);
    return 1;
  }
  // Every other failure too is one JSON object on stdout with --json (docs/cli.md, Exit codes).
  const code = error instanceof Unreachable ? error.code : 'failed';
  if (json) io.stdout(`${JSON.stringify({ code, detail: (error as Error).message })}\n`);
  io.stderr(`Error: ${(error as Error).message}\n`);
  return 1;
}

/** parseArgs' options: the global ones and every command's; a name or short flag means one thing. */
function allOptions(list: CommandList): Record<string, Pick<OptionSpec, 'type' | 'short' | 'multiple'>> {
  const merged: Record<string, Pick<OptionSpec, 'type' | 'short' | 'multiple'>> = {};
  const shorts = new Map<string, string>();
  for (const specs of [globalOptions, ...Object.values(list).map((c) => c.options)]) {
    for (const [name, { type, short, multiple }] of Object.entries(specs as OptionSpecs)) {
      const option = { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}) };
      const known = merged[name];
      if (known && JSON.stringify(known) !== JSON.stringify(option))
        throw new Error(`--${name} is declared differently by two commands`);
      if (short && (shorts.get(short) ?? name) !== name)
        throw new Error(`-${short} is declared for --${shorts.get(short)} and --${name}`);
      if (short) shorts.set(short, name);
      merged[name] = option;
    }
  }
  return merged;
}
