import { PlatformError } from '../../errors.ts';
import type { FetchLike } from '../../http/fetch-like.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import type { AccountMetricName } from '../manifest.ts';
import type {
  AccountProfile,
  MetricsTarget,
  PlatformAccount,
  PlatformCallContext,
  PostContent,
  PostMetricsResult,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { type BlueskyConfig, normalizeServiceUrl } from './config.ts';
import { detectFacets, resolveFacets } from './facets.ts';
import { blueskyManifest } from './manifest.ts';
import { blueskyAccountMetrics, blueskyMetricsBatchSize, blueskyPostMetrics } from './metrics.ts';
import {
  type BlueskyCredentials,
  type BlueskyOptions,
  blueskyCredentialsSchema,
  blueskyOptionsSchema,
} from './options.ts';
import { parsePostUri, replyRefOf, type StrongRef, strongRefOf } from './reply-ref.ts';
import { type BlueskySession, type SessionKey, SessionStore } from './session.ts';
import { nextTid } from './tid.ts';
import { validateBlueskyPost } from './validate.ts';
import { classifyXrpcError, XrpcError, type XrpcRequest, xrpc } from './xrpc.ts';

interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

const postCollection = 'app.bsky.feed.post';
const uploadTimeoutMs = 10 * 60_000;
/** How long a planned record key is remembered for retries of the same post. */
const plannedKeyTtlMs = 60 * 60_000;

/**
 * Publishes to Bluesky through the account's PDS with an app password: log in (cached),
 * upload blobs, then create one `app.bsky.feed.post` record with facets and embeds.
 */
export class BlueskyPublisher implements Publisher<BlueskyOptions> {
  readonly id = blueskyManifest.id;
  readonly displayName = blueskyManifest.name;
  readonly optionsSchema = blueskyOptionsSchema;
  readonly credentialsSchema = blueskyCredentialsSchema;
  readonly concurrency: number;
  /** The record key is chosen before the first send and stored; `getRecord` finds an earlier send. */
  readonly dedupe = 'lookup' as const;
  readonly #config: BlueskyConfig;
  readonly #sessions = new SessionStore();
  /** Record keys chosen per idempotency key, so a retry after an unclear failure finds the post instead of duplicating it. */
  readonly #plannedKeys = new Map<string, { rkey: string; expires: number }>();

  constructor(config: BlueskyConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  async validate(
    post: PostContent,
    _account: PlatformAccount,
    media: MediaInfo[],
    options: BlueskyOptions,
  ): Promise<ValidationOutcome> {
    return validateBlueskyPost(post, media, options);
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: BlueskyOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const client = this.#client(account, context.signal, context.accountHostFetch);
    const planned = this.#plan(context.idempotencyKey, context.dedupeHandle);
    const session = await client.session();
    // A reply part keeps the same record-key dedupe: its key was planned (and stored) like any post's.
    if (planned.retry || context.resumed) {
      const existing = await client.findRecord(session.did, planned.rkey);
      if (existing) return resultFor(existing, session);
    }

    const [facets, embed, reply] = await Promise.all([
      resolveFacets(detectFacets(post.message), (handle) => client.resolveHandle(handle)),
      this.#embed(client, media, options),
      context.replyTo ? this.#replyRefs(client, context.replyTo) : undefined,
    ]);
    const record: Record<string, unknown> = {
      $type: postCollection,
      text: post.message,
      createdAt: new Date().toISOString(),
      ...(reply ? { reply } : {}),
      ...(facets.length > 0 ? { facets } : {}),
      ...(options.langs?.length ? { langs: options.langs } : {}),
      ...(embed ? { embed } : {}),
    };
    const created = await client.call<{ uri: string; cid: string }>((token, did) => ({
      method: 'POST',
      nsid: 'com.atproto.repo.createRecord',
      token,
      body: { repo: did, collection: postCollection, rkey: planned.rkey, record },
    }));
    this.#plannedKeys.delete(context.idempotencyKey);
    context.logger.debug({ platform: this.id, uri: created.uri }, 'bluesky record created');
    return resultFor(created, await client.session());
  }

  readonly metricsBatchSize = blueskyMetricsBatchSize;

  metrics(
    targets: readonly MetricsTarget[],
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Map<string, PostMetricsResult>> {
    return blueskyPostMetrics(this.#client(account, context.signal, context.accountHostFetch), targets);
  }

  accountMetrics(
    account: PlatformAccount,
    context: PlatformCallContext,
  ): Promise<Partial<Record<AccountMetricName, number>>> {
    return blueskyAccountMetrics(this.#client(account, context.signal, context.accountHostFetch));
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'accountHostFetch'>,
  ): Promise<AccountProfile> {
    const client = this.#client(account, context?.signal, context?.accountHostFetch);
    const session = await client.session();
    const profile = await client
      .call<{ displayName?: string; avatar?: string; handle?: string }>((token, did) => ({
        method: 'GET',
        nsid: 'app.bsky.actor.getProfile',
        token,
        params: { actor: did },
      }))
      .catch((error: unknown) => {
        // The login proved the credentials; a profile the AppView cannot serve yet is no reason to refuse them.
        if (error instanceof PlatformError && error.code === 'credentials_invalid') throw error;
        return undefined;
      });
    // Only well-formed profile fields are kept: the service may be any host a user named.
    const displayName =
      typeof profile?.displayName === 'string' ? profile.displayName.trim().slice(0, 64) : '';
    const avatar = typeof profile?.avatar === 'string' && /^https:\/\/\S{1,2000}$/.test(profile.avatar);
    return {
      name: displayName || session.handle,
      username: session.handle,
      platformAccountId: session.did,
      ...(avatar ? { avatarUrl: profile!.avatar! } : {}),
    };
  }

  /** A fresh record key (a TID), for the caller to store with its publish intent. */
  dedupeHandle(): string {
    return nextTid(Date.now());
  }

  #plan(idempotencyKey: string, stored: string | undefined): { rkey: string; retry: boolean } {
    const now = Date.now();
    for (const [key, entry] of this.#plannedKeys) if (entry.expires < now) this.#plannedKeys.delete(key);
    const known = this.#plannedKeys.get(idempotencyKey);
    if (known) return { ...known, retry: true };
    const entry = { rkey: stored ?? nextTid(now), expires: now + plannedKeyTtlMs };
    this.#plannedKeys.set(idempotencyKey, entry);
    return { ...entry, retry: false };
  }

  /**
   * `reply: { root, parent }` as strong refs. The CID comes from the stored `replyRef`; a result
   * without one (published before replies existed) is read back with `getRecord`.
   */
  async #replyRefs(
    client: BlueskyClient,
    target: NonNullable<PublishContext['replyTo']>,
  ): Promise<{ root: StrongRef; parent: StrongRef }> {
    const refOf = async (result: PublishResult): Promise<StrongRef> => {
      const stored = strongRefOf(result);
      if (stored) return stored;
      const { repo, collection, rkey } = parsePostUri(result.platformPostId);
      const found = await client.findRecordIn(repo, collection, rkey);
      if (!found) {
        throw new PlatformError(
          'content_rejected',
          `The Bluesky post to reply to (${result.platformPostId}) no longer exists`,
          { retryable: false },
        );
      }
      return found;
    };
    const [root, parent] = await Promise.all([refOf(target.root), refOf(target.parent)]);
    return { root, parent };
  }

  async #embed(
    client: BlueskyClient,
    media: readonly MediaFile[],
    options: BlueskyOptions,
  ): Promise<Record<string, unknown> | undefined> {
    if (media.length === 0) return undefined;
    const blobs = await Promise.all(media.map((file) => client.uploadBlob(file)));
    // The media's own `altText` (docs/composer-fields.md) wins over the older per-post `altTexts` option.
    const altText = (index: number) => media[index]!.altText ?? options.altTexts?.[index] ?? '';
    if (media[0]!.kind === 'video') {
      const alt = altText(0);
      return { $type: 'app.bsky.embed.video', video: blobs[0], ...(alt ? { alt } : {}) };
    }
    return {
      $type: 'app.bsky.embed.images',
      images: blobs.map((image, index) => ({ image, alt: altText(index) })),
    };
  }

  #client(
    account: PlatformAccount,
    signal: AbortSignal | undefined,
    accountHostFetch: FetchLike | undefined,
  ): BlueskyClient {
    const parsed = blueskyCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success) {
      throw new PlatformError(
        'credentials_invalid',
        `Bluesky credentials need ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      );
    }
    // The default service comes from env (the operator's); an account's own `service` is user-chosen.
    const fetch = parsed.data.service ? accountHostFetch : undefined;
    return new BlueskyClient(this.#sessions, this.#sessionKey(parsed.data), signal, fetch);
  }

  #sessionKey(credentials: BlueskyCredentials): SessionKey {
    const serviceUrl = credentials.service
      ? normalizeServiceUrl(credentials.service)
      : this.#config.serviceUrl;
    if (!serviceUrl)
      throw new PlatformError('credentials_invalid', 'Bluesky credentials.service is not an http(s) URL');
    return { serviceUrl, identifier: credentials.identifier, appPassword: credentials.appPassword };
  }
}

/** One account's XRPC calls for one operation, renewing the session once when its token expired. */
class BlueskyClient {
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

/** The post's URI and link, with its strong ref as `replyRef` so a later part can reply to it. */
function resultFor(ref: StrongRef, session: BlueskySession): PublishResult {
  const rkey = ref.uri.split('/').at(-1)!;
  const profile = session.handle && session.handle !== 'handle.invalid' ? session.handle : session.did;
  return {
    platformPostId: ref.uri,
    url: `https://bsky.app/profile/${profile}/post/${rkey}`,
    replyRef: replyRefOf(ref),
  };
}
