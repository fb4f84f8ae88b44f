import { SignJWT } from 'jose';
import { adminApiKeyPattern } from './options.ts';

/** Ghost refuses a token older than 5 minutes; each request gets a fresh one. */
export const tokenLifetimeSeconds = 5 * 60;

/**
 * The short-lived Admin API token Ghost expects: HS256, `kid` = the key's id, signed with the
 * key's secret decoded from hex, audience `/admin/`, issued now and expiring in 5 minutes.
 */
export async function adminToken(adminApiKey: string, now = Date.now()): Promise<string> {
  const match = adminApiKeyPattern.exec(adminApiKey.trim());
  if (!match) throw new TypeError('not an Admin API key');
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: match[1]! })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + tokenLifetimeSeconds)
    .setAudience('/admin/')
    .sign(Buffer.from(match[2]!, 'hex'));
}
