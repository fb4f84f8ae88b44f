import { createHmac, randomUUID } from 'node:crypto';

/** Signs a JWT-shaped token (HS256) so fakes hand out tokens that look and decode like real ones. */
export function signFakeJwt(payload: Record<string, unknown>, secret: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ typ: 'at+jwt', alg: 'HS256' })}.${encode({ jti: randomUUID(), ...payload })}`;
  const signature = createHmac('sha256', secret).update(head).digest('base64url');
  return `${head}.${signature}`;
}

/** The payload of a token this fake signed, or undefined when the signature does not match. */
export function verifyFakeJwt(token: string, secret: string): Record<string, unknown> | undefined {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return undefined;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  if (expected !== signature) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
