import { z } from 'zod';
import { parseAllowedPrivateHosts } from '../http/address-policy.ts';
import type { Env } from '../platforms/types.ts';

/**
 * Configuration declared once: each environment variable is one `fromEnv(NAME, schema)` entry in a
 * tree shaped like the typed configuration, and `envConfig(tree)` is the zod schema that reads the
 * whole environment into that shape. The variable's name, default, check and meaning live in that
 * one entry; the configuration type is inferred from it.
 */
export interface EnvSetting<T> {
  /** The variable's name, or a family's pattern such as `PUBLISH_RATE_<PLATFORM>_<SCOPE>`. */
  readonly variable: string;
  /** Reads the setting from the environment, reporting problems under the variable's name. */
  readonly read: (env: Env, ctx: z.RefinementCtx) => T;
}

/** A tree of settings: leaves are `fromEnv` entries, branches group them (`dispatcher: {...}`). */
export interface EnvSettingTree {
  readonly [key: string]: EnvSetting<unknown> | EnvSettingTree;
}

/** The configuration a settings tree reads into. */
export type ConfigOf<T> = T extends EnvSetting<infer V> ? V : { -readonly [K in keyof T]: ConfigOf<T[K]> };

/**
 * One variable. An unset or blank value reaches `schema` as undefined (so `.default()` applies
 * and `X=` in an env file means "unset"); other values arrive trimmed.
 */
export function fromEnv<S extends z.ZodType>(variable: string, schema: S): EnvSetting<z.output<S>> {
  return {
    variable,
    read(env, ctx) {
      const value = env[variable]?.trim() || undefined;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: [variable, ...issue.path], message: issue.message });
      return z.NEVER;
    },
  };
}

/**
 * A family of variables sharing a prefix (`PUBLISH_CONCURRENCY_<PLATFORM>`), read by `read`, which
 * throws an Error whose message names the offending variable.
 */
export function fromEnvFamily<T>(pattern: string, read: (env: Env) => T): EnvSetting<T> {
  return {
    variable: pattern,
    read(env, ctx) {
      try {
        return read(env);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    },
  };
}

function isSetting(node: EnvSetting<unknown> | EnvSettingTree): node is EnvSetting<unknown> {
  return typeof node.read === 'function' && typeof node.variable === 'string';
}

function readTree(tree: EnvSettingTree, env: Env, ctx: z.RefinementCtx): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => [
      key,
      isSetting(node) ? node.read(env, ctx) : readTree(node, env, ctx),
    ]),
  );
}

/**
 * The zod schema reading an environment into the tree's configuration. Every problem is reported
 * (not only the first), each under its variable's name; `.transform` it for values derived from
 * several variables.
 */
export function envConfig<T extends EnvSettingTree>(tree: T) {
  return z
    .custom<Env>((value) => typeof value === 'object' && value !== null)
    .transform((env, ctx) => readTree(tree, env, ctx) as ConfigOf<T>);
}

/** Every variable (or family pattern) a settings tree reads, in declaration order. */
export function envVariables(tree: EnvSettingTree): string[] {
  return Object.values(tree).flatMap((node) => (isSetting(node) ? [node.variable] : envVariables(node)));
}

/**
 * `Invalid configuration:` and one line per problem, starting with the variable's name:
 * `  PORT: must be ...` (or `  PORT must be ...` with `separator: ' '`).
 */
export function envConfigMessage(error: z.ZodError, separator = ': '): string {
  const lines = error.issues.map((issue) => {
    const [variable] = issue.path;
    return `  ${variable === undefined ? '' : `${String(variable)}${separator}`}${issue.message}`;
  });
  return `Invalid configuration:\n${lines.join('\n')}`;
}

// Field schemas both servers use. Each receives the trimmed value or undefined (see fromEnv).

/** A value checked by a function that throws an Error saying what is wrong with it. */
export function envParsedBy<T>(parse: (value: string) => T) {
  return z.string().transform((value, ctx): T => {
    try {
      return parse(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
}

/**
 * `ALLOW_PRIVATE_HOSTS` (contract D, both deployments): the private hosts user-chosen URLs may
 * reach anyway, comma-separated `host[:port]`; none when unset.
 */
export const envAllowedPrivateHosts = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseAllowedPrivateHosts(value);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: (error as Error).message.replace(/^ALLOW_PRIVATE_HOSTS: /, ''),
      });
      return z.NEVER;
    }
  });

/** true/false, 1/0, yes/no, on/off. */
export const envFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be true or false (or 1/0, yes/no, on/off)',
  })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

/** A whole number from `min` (default 1) to `max`; "got" echoes the value (never use it for secrets). */
export function envWholeNumber(min = 1, max = Number.MAX_SAFE_INTEGER, unit = 'whole number') {
  return z.string().transform((value, ctx) => {
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      ctx.addIssue({ code: 'custom', message: `must be a ${unit} ${range}, got "${value}"` });
      return z.NEVER;
    }
    return parsed;
  });
}

/** A positive whole number (bytes, counts). */
export const envPositive = envWholeNumber(1);

/** A duration in milliseconds, 0 allowed. */
export const envMilliseconds = envWholeNumber(0, Number.MAX_SAFE_INTEGER, 'whole number of milliseconds');

/** A TCP port to listen on (0: any free port). */
export const envPort = envWholeNumber(0, 65_535, 'port number');

/** An http(s) URL, without a trailing slash. */
export const envHttpUrl = z
  .string()
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A pino log level, case-insensitive. */
export const envLogLevel = z
  .string()
  .transform((value) => value.toLowerCase())
  .pipe(z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }));

/** A secret of at least `min` characters; the message never echoes the value. */
export function envSecret(min: number, hint = '') {
  return z.string().min(min, `must be at least ${min} characters${hint ? ` (${hint})` : ''}`);
}

/** The length below which a bearer token the operator chose is worth a warning at start. */
export const weakTokenLength = 16;

/**
 * A bearer token the operator chose (METRICS_TOKEN, DISPATCH_SECRET): any non-empty value is taken,
 * since the contract sets no minimum; one shorter than `weakTokenLength` gets `weakTokenWarning`.
 */
export const envBearerToken = z.string().min(1, 'must not be empty');

/** The start-up warning for a short bearer token, or undefined. */
export function weakTokenWarning(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value.length >= weakTokenLength) return undefined;
  return `${name} is shorter than ${weakTokenLength} characters: it is easy to guess (generate one with \`openssl rand -hex 32\`).`;
}
