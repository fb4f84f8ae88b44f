import type { Api } from './api.ts';
import type { Env } from './config.ts';

/** Wrong arguments: printed without "Error:" and the CLI exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** An option of one subcommand given to its sibling (`posts show --limit`): refused, never ignored. */
export function siblingOption(command: string, sub: string, option: string, owner: string): UsageError {
  return new UsageError(
    `postwave ${command} ${sub} takes no --${option} (only ${command} ${owner} does).\nRun postwave ${command} --help for usage.`,
  );
}

/** An argument the command does not take: named, with where to read the usage (like an unknown option). */
export function unexpectedArgument(command: string, arg: string): UsageError {
  return new UsageError(`Unexpected argument "${arg}".\nRun postwave ${command} --help for usage.`);
}

export interface Io {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where the upload progress bar is drawn (only when it is a terminal). */
  progress: NodeJS.WriteStream | undefined;
  readStdin: () => string;
}

/**
 * One option as data: the `node:util` parseArgs fields (`type`, `short`, `multiple`) plus what
 * shell completion shows for it.
 */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** A few words for completion menus. */
  readonly summary: string;
  /** A string option's value: its name in completion menus, and what it completes to (nothing by default). */
  readonly value?: { readonly name: string; readonly complete?: 'file' | readonly string[] };
}
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['multiple'] extends true
    ? string[]
    : string;

/** What parseArgs answers for `O`: every option may be absent. */
export type Values<O extends OptionSpecs> = { -readonly [K in keyof O]?: ValueOf<O[K]> };

/** Options every command takes. */
export const globalOptions = {
  server: { type: 'string', summary: 'the Scheduler URL', value: { name: 'url' } },
  json: { type: 'boolean', summary: 'print machine-readable JSON' },
  help: { type: 'boolean', short: 'h', summary: 'show help' },
  version: { type: 'boolean', short: 'v', summary: 'show the version' },
} as const satisfies OptionSpecs;

/** What the word after the command completes to in a shell. */
export type Positional =
  /** A subcommand, e.g. `posts list`. */
  | { readonly kind: 'subcommand'; readonly words: readonly string[] }
  /** A file (zsh narrows it to `glob`). */
  | { readonly kind: 'file'; readonly glob?: string }
  /** One of these words, or one of the command names. */
  | { readonly kind: 'word'; readonly name: string; readonly words: readonly string[] | 'commands' };

export interface Context<O extends OptionSpecs> {
  /** Parsed options (those of every command are accepted; see cli.ts). */
  values: Values<O & typeof globalOptions>;
  /** The arguments after the command name. */
  args: string[];
  io: Io;
  /** Every command, for help and completion. */
  commands: CommandList;
  /** A client for the resolved server; without `needToken: false`, a usage error when not logged in. */
  api(options?: { needToken?: boolean }): Api;
  /** Prints `data` as JSON with --json, else `text`. */
  print(data: unknown, text: string): void;
}

/** A command module: `cli/src/commands/<name>.ts`, listed once in `commands/index.ts`. */
export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** A few words for completion menus; none: completion does not offer the command. */
  readonly summary?: string;
  /** Its lines in `postwave --help` (usage after `postwave`, what it does); none: not listed. */
  readonly synopsis?: readonly (readonly [usage: string, text: string])[];
  /** `postwave <command> --help`; none: --help runs the command. */
  readonly help?: string;
  readonly options: O;
  readonly positional?: Positional;
  run(context: Context<O>): Promise<number>;
}

export type CommandList = Readonly<Record<string, Command>>;
