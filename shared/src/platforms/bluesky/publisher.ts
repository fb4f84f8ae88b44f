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
import { BlueskyClient, postCollection } from './client.ts';
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
