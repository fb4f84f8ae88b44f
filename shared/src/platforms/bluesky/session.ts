import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import { classifyXrpcError, XrpcError, xrpc } from './xrpc.ts';

export interface BlueskySession {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

export interface SessionKey {
  serviceUrl: string;
  identifier: string;
  appPassword: string;
}

interface CallOptions {
  signal?: AbortSignal;
  fetch?: FetchLike | undefined;
}

/**
 * Sessions per account, kept for the life of the publisher. Bluesky limits createSession
 * tightly (30 per 5 minutes, 300 a day per account), so logging in on every post would
 * soon lock an account out; we log in once and refresh the short-lived access token.
 */
export class SessionStore {
  readonly #sessions = new Map<string, Promise<BlueskySession>>();

  /** The cached session, or a new one. Concurrent callers share one login. */
  get(key: SessionKey, options: CallOptions = {}): Promise<BlueskySession> {
    const id = cacheId(key);
    let session = this.#sessions.get(id);
    if (!session) {
      session = createSession(key, options);
      this.#sessions.set(id, session);
      // A failed login is not cached: the next post tries again.
      session.catch(() => this.#forget(id, session!));
    }
    return session;
  }

  /**
   * Replaces a session whose access token expired: refresh it, or log in again when the
   * refresh token is no longer accepted either.
   */
  renew(key: SessionKey, stale: BlueskySession, options: CallOptions = {}): Promise<BlueskySession> {
    const id = cacheId(key);
    const current = this.#sessions.get(id);
    const renewed = (async () => {
      // Another caller may already have renewed it.
      const latest = current ? await current.catch(() => undefined) : undefined;
      if (latest && latest.accessJwt !== stale.accessJwt) return latest;
      try {
        return await refreshSession(key.serviceUrl, stale, options);
      } catch (error) {
        if (error instanceof PlatformError && error.code === 'credentials_invalid') {
          return createSession(key, options);
        }
        throw error;
      }
    })();
    this.#sessions.set(id, renewed);
    renewed.catch(() => this.#forget(id, renewed));
    return renewed;
  }

  #forget(id: string, session: Promise<BlueskySession>): void {
    if (this.#sessions.get(id) === session) this.#sessions.delete(id);
  }
}

/** The app password is part of the key (hashed, never stored) so changed credentials log in afresh. */
function cacheId(key: SessionKey): string {
  const secret = createHash('sha256').update(key.appPassword).digest('base64url');
  return `${key.serviceUrl}\n${key.identifier.toLowerCase()}\n${secret}`;
}

interface SessionAnswer {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

async function createSession(key: SessionKey, options: CallOptions): Promise<BlueskySession> {
  try {
    const answer = await xrpc<SessionAnswer>(key.serviceUrl, {
      method: 'POST',
      nsid: 'com.atproto.server.createSession',
      body: { identifier: key.identifier, password: key.appPassword },
      ...options,
    });
    return toSession(answer);
  } catch (error) {
    throw error instanceof XrpcError ? classifySessionError(error) : error;
  }
}

async function refreshSession(
  serviceUrl: string,
  stale: BlueskySession,
  options: CallOptions,
): Promise<BlueskySession> {
  try {
    const answer = await xrpc<SessionAnswer>(serviceUrl, {
      method: 'POST',
      nsid: 'com.atproto.server.refreshSession',
      token: stale.refreshJwt,
      ...options,
    });
    return toSession(answer);
  } catch (error) {
    throw error instanceof XrpcError ? classifyXrpcError(error) : error;
  }
}

/** A login with wrong details is a 401 AuthenticationRequired; a 400 at login is also a credentials problem. */
function classifySessionError(error: XrpcError): PlatformError {
  const classified = classifyXrpcError(error);
  if (classified.code !== 'content_rejected') return classified;
  return new PlatformError('credentials_invalid', `Bluesky refused the login: ${error.message}`, {
    status: error.status,
    cause: error,
  });
}

const didPattern = /^did:[a-z]+:[A-Za-z0-9._:%-]{1,512}$/;
const handlePattern = /^[A-Za-z0-9.-]{1,253}$/;

/** A reply that is not a session (a non-Bluesky server at that address) is refused, never copied. */
function toSession(answer: SessionAnswer): BlueskySession {
  const valid =
    answer &&
    typeof answer.did === 'string' &&
    didPattern.test(answer.did) &&
    typeof answer.handle === 'string' &&
    handlePattern.test(answer.handle) &&
    typeof answer.accessJwt === 'string' &&
    answer.accessJwt.length > 0 &&
    typeof answer.refreshJwt === 'string' &&
    answer.refreshJwt.length > 0;
  if (!valid) {
    throw new PlatformError(
      'platform_unavailable',
      'The service did not answer the login like a Bluesky server',
    );
  }
  return {
    did: answer.did,
    handle: answer.handle,
    accessJwt: answer.accessJwt,
    refreshJwt: answer.refreshJwt,
  };
}
