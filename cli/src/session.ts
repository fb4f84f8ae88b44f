import { Api } from './api.ts';
import { UsageError } from './command.ts';
import { type Env, readConfig, resolveServer } from './config.ts';

/**
 * A client for the server (--server, then POSTWAVE_URL, then the one logged in to) with
 * POSTWAVE_TOKEN or the stored token; the stored one only for the server it was issued by.
 */
export function connect(serverFlag: string | undefined, env: Env, needToken = true): Api {
  const stored = readConfig(env);
  const server = resolveServer(serverFlag, env, stored);
  if (!server)
    throw new UsageError(
      'No server: pass --server <url>, set POSTWAVE_URL, or run postwave login --server <url>',
    );
  const token =
    env.POSTWAVE_TOKEN || (stored.server && sameServer(stored.server, server) ? stored.token : undefined);
  if (needToken && !token)
    throw new UsageError(`Not logged in to ${server}: run postwave login --server ${server}`);
  return new Api({ server, token });
}

function sameServer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
