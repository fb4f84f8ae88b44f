import { toPlatformError } from '../errors.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { MediaFile } from '../media/media-file.ts';
import { publishOutcome, recordPublish } from '../metrics/registry.ts';
import type { PublisherRegistry } from '../platforms/registry.ts';
import type { AnyPublisher, PlatformAccount } from '../platforms/types.ts';
import type { MediaReference } from '../schemas/media.ts';
import type {
  AccountValidation,
  TargetResult,
  ValidationIssue,
  ValidationResponse,
} from '../schemas/results.ts';
import type { Storage } from '../storage/types.ts';
import { PlatformLimiter } from './limiter.ts';
import { ownMediaResolver, resolveMedia } from './resolve-media.ts';
import { defaultRetryPolicy, type RetryPolicy, withRetry } from './retry.ts';

export interface PostInput {
  message: string;
  accountIds: readonly string[];
  media: readonly MediaReference[];
  /** Per-account options keyed by account id; merged over the account's own `options`. */
  accountOptions?: Readonly<Record<string, Record<string, unknown>>>;
}

/** Finds an account by id for the current caller (the accounts file, or one user's accounts). */
export type AccountLookup = (
  accountId: string,
) => PlatformAccount | undefined | Promise<PlatformAccount | undefined>;

export interface PreparedTarget {
  account: PlatformAccount;
  publisher: AnyPublisher;
  options: Record<string, unknown>;
}

export interface PreparedPost {
  validation: ValidationResponse;
  /** Present only when every target is valid. */
  targets?: PreparedTarget[];
  message: string;
  media: MediaFile[];
}

export interface PublishHooks {
  /** Base for per-target idempotency keys, so a retried post is recognised by platforms that support it. */
  idempotencyKey?: string;
  onCredentialsRefreshed?: (accountId: string, credentials: Record<string, unknown>) => void | Promise<void>;
  signal?: AbortSignal;
  retryPolicy?: RetryPolicy;
  /** Per account id: the publish intent stored before sending (see `PublishContext.dedupeHandle`, `resumed`). */
  intents?: ReadonlyMap<string, TargetIntent>;
}

/** What a caller stored about a target before sending it. */
export interface TargetIntent {
  dedupeHandle?: string;
  resumed?: { since: Date };
  /** The target's still-valid `Publisher.stage` handle (see `PublishContext.staged`). */
  staged?: string;
}

export interface PostingServiceOptions {
  publishers: PublisherRegistry;
  storage: Storage;
  logger?: Logger;
  limiter?: PlatformLimiter;
  /** The issue for an id that matches no account; by default `account_not_found`. Adapters may name their own reason. */
  unknownAccount?: (accountId: string) => { code: string; message: string };
  /** Defaults to resolving URLs of `storage` itself. */
  resolveOwnMedia?: (url: string) => Promise<MediaFile | null>;
  /** The fetch for hosts accounts name themselves (see PublishContext.accountHostFetch). */
  accountHostFetch?: FetchLike;
}

export function accountNotFound(accountId: string): { code: string; message: string } {
  return { code: 'account_not_found', message: `No account with id "${accountId}"` };
}

/**
 * Validate-everything-then-publish, shared by both deployments. Nothing is published unless
 * every target validated; targets then publish concurrently under per-platform limits,
 * each with its own retries inside the policy's deadline.
 */
export class PostingService {
  readonly #publishers: PublisherRegistry;
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #limiter: PlatformLimiter;
  readonly #unknownAccount: (accountId: string) => { code: string; message: string };
  readonly #resolveOwnMedia: ((url: string) => Promise<MediaFile | null>) | undefined;
  readonly #accountHostFetch: FetchLike | undefined;

  constructor(options: PostingServiceOptions) {
    this.#publishers = options.publishers;
    this.#storage = options.storage;
    this.#logger = options.logger ?? silentLogger;
    this.#limiter = options.limiter ?? new PlatformLimiter();
    this.#unknownAccount = options.unknownAccount ?? accountNotFound;
    this.#resolveOwnMedia = options.resolveOwnMedia ?? ownMediaResolver(options.storage);
    this.#accountHostFetch = options.accountHostFetch;
  }

  async prepare(post: PostInput, lookup: AccountLookup): Promise<PreparedPost> {
    const { files, issues: mediaIssues } = await resolveMedia(post.media, this.#storage);
    const accountIds = [...new Set(post.accountIds)];
    const checked = await Promise.all(
      accountIds.map((accountId) => this.#validateTarget(post, accountId, lookup, files, mediaIssues)),
    );
    const results = checked.map((c) => c.result);
    const valid = results.every((r) => r.valid);
    const validation: ValidationResponse = { valid, results };
    if (!valid) return { validation, message: post.message, media: files };
    return { validation, targets: checked.map((c) => c.target!), message: post.message, media: files };
  }

  async #validateTarget(
    post: PostInput,
    accountId: string,
    lookup: AccountLookup,
    media: MediaFile[],
    mediaIssues: ValidationIssue[],
  ): Promise<{ result: AccountValidation; target?: PreparedTarget }> {
    const account = await lookup(accountId);
    if (!account) {
      const issue = this.#unknownAccount(accountId);
      return { result: invalid(accountId, 'unknown', [{ ...issue, path: 'accountIds' }]) };
    }
    const publisher = this.#publishers.get(account.platform);
    if (!publisher) {
      return {
        result: invalid(accountId, account.platform, [
          { code: 'platform_unsupported', message: `Platform "${account.platform}" is not supported` },
        ]),
      };
    }
    const rawOptions = { ...account.options, ...post.accountOptions?.[accountId] };
    const parsed = publisher.optionsSchema.safeParse(rawOptions);
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) => ({
        code: 'invalid_option',
        message: issue.message,
        path: ['accountOptions', accountId, ...issue.path.map(String)].join('.'),
      }));
      return { result: invalid(accountId, account.platform, [...mediaIssues, ...errors]) };
    }
    const options = parsed.data as Record<string, unknown>;
    const outcome = await publisher.validate({ message: post.message }, account, media, options, {
      ...(this.#resolveOwnMedia ? { resolveOwnMedia: this.#resolveOwnMedia } : {}),
      ...(this.#accountHostFetch ? { accountHostFetch: this.#accountHostFetch } : {}),
    });
    const errors = [...mediaIssues, ...outcome.errors];
    const result: AccountValidation = {
      accountId,
      platform: account.platform,
      valid: errors.length === 0,
      errors,
      warnings: outcome.warnings,
    };
    return { result, target: { account, publisher, options } };
  }

  /** Publishes prepared targets concurrently. Never throws: every target gets a result. */
  async publish(prepared: PreparedPost, hooks: PublishHooks = {}): Promise<TargetResult[]> {
    if (!prepared.targets) throw new Error('publish() needs a post whose every target validated');
    const policy = hooks.retryPolicy ?? defaultRetryPolicy();
    return Promise.all(
      prepared.targets.map(async (target) => {
        const startedAt = performance.now();
        const result = await this.#publishTarget(prepared, target, policy, hooks);
        recordPublish(result.platform, publishOutcome(result), startedAt);
        return result;
      }),
    );
  }

  async #publishTarget(
    prepared: PreparedPost,
    { account, publisher, options }: PreparedTarget,
    policy: RetryPolicy,
    hooks: PublishHooks,
  ): Promise<TargetResult> {
    const base = { accountId: account.id, platform: account.platform };
    // The policy deadline bounds when a new attempt may start; a running attempt is bounded by its
    // own request timeouts instead, so a long video upload is not cut off halfway.
    const signal = hooks.signal ?? new AbortController().signal;
    const logger = this.#logger;
    let currentAccount = account;
    // One key for every attempt: a retry must look like the same request to the platform.
    const idempotencyKey = `${hooks.idempotencyKey ?? crypto.randomUUID()}:${account.id}`;
    const intent = hooks.intents?.get(account.id);
    try {
      const result = await this.#limiter.runFor(publisher, account, () =>
        withRetry(
          (attempt) => {
            logger.debug({ accountId: account.id, platform: account.platform, attempt }, 'publishing target');
            return publisher.publish({ message: prepared.message }, currentAccount, prepared.media, options, {
              signal,
              idempotencyKey,
              logger,
              ...(intent?.dedupeHandle ? { dedupeHandle: intent.dedupeHandle } : {}),
              ...(intent?.resumed ? { resumed: intent.resumed } : {}),
              ...(intent?.staged ? { staged: intent.staged } : {}),
              onCredentialsRefreshed: async (credentials) => {
                currentAccount = { ...currentAccount, credentials };
                await hooks.onCredentialsRefreshed?.(account.id, credentials);
              },
              ...(this.#resolveOwnMedia ? { resolveOwnMedia: this.#resolveOwnMedia } : {}),
              ...(this.#accountHostFetch ? { accountHostFetch: this.#accountHostFetch } : {}),
            });
          },
          policy,
          signal,
        ),
      );
      logger.info({ accountId: account.id, platform: account.platform }, 'target posted');
      return {
        ...base,
        status: 'posted',
        platformPostId: result.platformPostId,
        ...(result.url ? { url: result.url } : {}),
      };
    } catch (thrown) {
      const error = toPlatformError(thrown);
      logger.warn(
        { accountId: account.id, platform: account.platform, code: error.code, retryable: error.retryable },
        'target failed',
      );
      if (error.code === 'internal') logger.error({ err: thrown }, 'unexpected publisher failure');
      return { ...base, status: 'failed', error: error.toJSON() };
    }
  }
}

function invalid(accountId: string, platform: string, errors: ValidationIssue[]): AccountValidation {
  return { accountId, platform, valid: false, errors, warnings: [] };
}
