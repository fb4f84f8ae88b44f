import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile } from '../../media/media-file.ts';
import type { StrongRef } from './reply-ref.ts';
import type { BlueskySession, SessionKey, SessionStore } from './session.ts';
import { classifyXrpcError, XrpcError, type XrpcRequest, xrpc } from './xrpc.ts';

interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

/** The collection of Bluesky posts. */
export const postCollection = 'app.bsky.feed.post';
const uploadTimeoutMs = 10 * 60_000;

/** One account's XRPC calls for one operation, renewing the session once when its token expired. */
export class BlueskyClient {
  readonly #sessions: SessionStore;
  readonly #key: SessionKey;
  readonly #signal: AbortSignal | undefined;
  readonly #fetch: FetchLike | undefined;

  constructor(
    sessions: SessionStore,
    key: SessionKey,
    signal: AbortSignal | undefined,
    fetch: FetchLike | undefined,
  ) {
    this.#sessions = sessions;
    this.#key = key;
    this.#signal = signal;
    this.#fetch = fetch;
  }

  session(): Promise<BlueskySession> {
    return this.#sessions.get(this.#key, this.#options());
  }

  async call<T>(build: (accessJwt: string, did: string) => XrpcRequest): Promise<T> {
    let session = await this.session();
    for (let renewed = false; ; renewed = true) {
      try {
        return await xrpc<T>(this.#key.serviceUrl, {
          ...build(session.accessJwt, session.did),
          ...this.#options(),
        });
      } catch (error) {
        if (!(error instanceof XrpcError)) throw error;
        if (!renewed && isStaleSession(error)) {
          session = await this.#sessions.renew(this.#key, session, this.#options());
          continue;
        }
        throw classifyXrpcError(error);
      }
    }
  }

  async uploadBlob(file: MediaFile): Promise<BlobRef> {
    const body = await file.blob();
    const answer = await this.call<{ blob: BlobRef }>((token) => ({
      method: 'POST',
      nsid: 'com.atproto.repo.uploadBlob',
      token,
      body,
      contentType: file.contentType,
      timeoutMs: uploadTimeoutMs,
    }));
    if (!answer?.blob?.ref)
      throw new PlatformError('platform_unavailable', 'Bluesky answered the upload without a blob');
    return answer.blob;
  }

  /** The handle's DID, or undefined when it does not resolve (the mention then stays plain text). */
  async resolveHandle(handle: string): Promise<string | undefined> {
    try {
      const answer = await xrpc<{ did?: string }>(this.#key.serviceUrl, {
        method: 'GET',
        nsid: 'com.atproto.identity.resolveHandle',
        params: { handle },
        ...this.#options(),
      });
      return answer?.did;
    } catch (error) {
      if (error instanceof XrpcError && error.status === 400) return undefined;
      throw error instanceof XrpcError ? classifyXrpcError(error) : error;
    }
  }

  /** Our post at `rkey`, if an earlier attempt already created it. */
  findRecord(did: string, rkey: string): Promise<StrongRef | undefined> {
    return this.findRecordIn(did, postCollection, rkey);
  }

  /** A record's strong ref, or undefined when the PDS has no such record (RecordNotFound). */
  async findRecordIn(repo: string, collection: string, rkey: string): Promise<StrongRef | undefined> {
    try {
      const answer = await this.call<{ uri: string; cid: string }>((token) => ({
        method: 'GET',
        nsid: 'com.atproto.repo.getRecord',
        token,
        params: { repo, collection, rkey },
      }));
      return { uri: answer.uri, cid: answer.cid };
    } catch (error) {
      if (error instanceof PlatformError && error.status === 400) return undefined;
      throw error;
    }
  }

  #options(): { signal?: AbortSignal; fetch?: FetchLike } {
    return {
      ...(this.#signal ? { signal: this.#signal } : {}),
      ...(this.#fetch ? { fetch: this.#fetch } : {}),
    };
  }
}

/** The session, not the credentials, is what failed: an expired token, or one the PDS no longer recognises (rotated keys). */
function isStaleSession(error: XrpcError): boolean {
  return (
    (error.status === 400 || error.status === 401) &&
    (error.error === 'ExpiredToken' || error.error === 'InvalidToken')
  );
}
