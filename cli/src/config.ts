import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './command.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** What `postwave login` remembers. */
export interface StoredConfig {
  server?: string;
  token?: string;
  expiresAt?: string;
}

/**
 * The config directory: POSTWAVE_CONFIG_DIR (tests, portable setups), else
 * $XDG_CONFIG_HOME/postwave, else %APPDATA%\postwave on Windows, else ~/.config/postwave.
 */
export function configDir(env: Env, platform = process.platform): string {
  if (env.POSTWAVE_CONFIG_DIR) return env.POSTWAVE_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'postwave');
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'postwave');
  return join(env.HOME || homedir(), '.config', 'postwave');
}

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

export function readConfig(env: Env): StoredConfig {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // No file: not logged in. Anything else (a directory, no permission) is the person's to fix.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    throw new Error(
      `Cannot read ${path} (${code ?? (error as Error).message}): fix or delete it, then run postwave login`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not valid JSON: fix or delete it, then run postwave login`);
  }
  // What login writes: an object whose fields are strings. Anything else was not written by postwave.
  const fields = ['server', 'token', 'expiresAt'] as const;
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Array.isArray(parsed) ||
    fields.some(
      (f) =>
        (parsed as Record<string, unknown>)[f] !== undefined &&
        typeof (parsed as Record<string, unknown>)[f] !== 'string',
    )
  )
    throw new Error(`${path} is not a postwave config: fix or delete it, then run postwave login`);
  return parsed as StoredConfig;
}

/** Writes the config readable by its owner only (0600, directory 0700): it holds a bearer token. */
export function writeConfig(env: Env, config: StoredConfig): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function deleteConfig(env: Env): void {
  rmSync(configPath(env), { force: true });
}

/** --server, then POSTWAVE_URL, then the server from login; without a trailing slash. */
export function resolveServer(flag: string | undefined, env: Env, stored: StoredConfig): string | undefined {
  const value = flag ?? env.POSTWAVE_URL ?? stored.server;
  return value ? normalizeServer(value) : undefined;
}

export function normalizeServer(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`"${value}" is not a URL: pass e.g. --server https://postwave.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`The server URL must start with https:// or http:// (got ${url.protocol})`);
  return url.toString().replace(/\/+$/, '');
}
