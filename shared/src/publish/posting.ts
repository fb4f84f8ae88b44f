import { toPlatformError } from '../errors.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import { publicHostsFetch } from '../http/safe-fetch.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { MediaFile } from '../media/media-file.ts';
import { publishOutcome, recordPublish } from '../metrics/registry.ts';
import { cachedOptionChoicesLoader, type OptionChoicesLoader } from '../platforms/option-choices.ts';
import type { PublisherRegistry } from '../platforms/registry.ts';
import type { PublishContext } from '../platforms/types.ts';
import type { ValidationResponse } from '../schemas/results.ts';
import type { Storage } from '../storage/types.ts';
import { PlatformLimiter } from './limiter.ts';
import type {
  AccountLookup,
  PostInput,
  PreparedPost,
  PreparedTarget,
  PublishHooks,
  TargetOutcome,
} from './posting-types.ts';
import { ownMediaResolver, type ResolvedMedia, resolveMedia } from './resolve-media.ts';
import { defaultRetryPolicy, type RetryPolicy } from './retry.ts';
import { TargetRun } from './target-run.ts';
import { linkExtras, withTrackedLinks } from './tracked-links.ts';
import { type TargetCheckDeps, validateTarget } from './validate-target.ts';

export * from './posting-types.ts';

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
  /**
   * Where no `accountHostFetch` is given (the self-hosted server trusts its accounts file's
   * hosts), the fetch for hosts a request names, which are the caller's choice: an SSRF-safe one
   * (by default public addresses only; the deployment's `ALLOW_PRIVATE_HOSTS` widens it).
   */
  requestHostFetch?: FetchLike;
  /**
   * Loads a `choicesFrom` field's choices for validation; by default the publisher is asked under
   * a 10-second deadline, cached for a minute per account, field and `dependsOn` value.
   */
  loadOptionChoices?: OptionChoicesLoader;
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
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #limiter: PlatformLimiter;
  /** What every validate and publish context carries besides the call's own (built once). */
  readonly #extraContext: Pick<PublishContext, 'resolveOwnMedia' | 'accountHostFetch'>;
  readonly #checkDeps: TargetCheckDeps;
  readonly #requestHostFetch: FetchLike;

  constructor(options: PostingServiceOptions) {
    this.#requestHostFetch = options.requestHostFetch ?? publicHostsFetch();
    this.#storage = options.storage;
    this.#logger = options.logger ?? silentLogger;
    this.#limiter = options.limiter ?? new PlatformLimiter();
    this.#extraContext = {
      resolveOwnMedia: options.resolveOwnMedia ?? ownMediaResolver(options.storage),
      ...(options.accountHostFetch ? { accountHostFetch: options.accountHostFetch } : {}),
    };
    this.#checkDeps = {
      publishers: options.publishers,
      storage: options.storage,
      unknownAccount: options.unknownAccount ?? accountNotFound,
      extraContext: this.#extraContext,
      loadOptionChoices:
        options.loadOptionChoices ??
        cachedOptionChoicesLoader({
          logger: this.#logger,
          ...(options.accountHostFetch ? { accountHostFetch: options.accountHostFetch } : {}),
        }),
    };
  }

  async prepare(post: PostInput, lookup: AccountLookup): Promise<PreparedPost> {
    const thread = post.thread ?? [];
    // Most posts have no media and no thread: nothing to look up, and no tick spent waiting for it.
    const [base, ...parts] =
      post.media.length === 0 && thread.length === 0
        ? [noMedia()]
        : await Promise.all([
            resolveMedia(post.media, this.#storage),
            ...thread.map((part, i) => resolveMedia(part.media, this.#storage, `thread[${i}].media`)),
          ]);
    const accountIds = [...new Set(post.accountIds)];
    const checked = await Promise.all(
      accountIds.map((accountId) => validateTarget(this.#checkDeps, post, accountId, lookup, base!, parts)),
    );
    const results = checked.map((c) => c.result);
    const valid = results.every((r) => r.valid);
    const validation: ValidationResponse = { valid, results };
    if (!valid) return { validation, message: post.message, media: base!.files };
    return {
      validation,
      targets: checked.map((c) => c.target!),
      message: post.message,
      media: base!.files,
    };
  }

  /** Publishes prepared targets concurrently. Never throws: every target gets a result. */
  async publish(prepared: PreparedPost, hooks: PublishHooks = {}): Promise<TargetOutcome[]> {
    if (!prepared.targets) throw new Error('publish() needs a post whose every target validated');
    const policy = hooks.retryPolicy ?? defaultRetryPolicy();
    return Promise.all(prepared.targets.map((target) => this.#publishTarget(target, policy, hooks)));
  }

  /** Publishes one target and records it in the metrics (`startedAt`: this call). */
  async #publishTarget(
    target: PreparedTarget,
    policy: RetryPolicy,
    hooks: PublishHooks,
  ): Promise<TargetOutcome> {
    const startedAt = performance.now();
    const { account, publisher } = target;
    const base = { accountId: account.id, platform: account.platform };
    // The policy deadline bounds when a new attempt may start; a running attempt is bounded by its
    // own request timeouts instead, so a long video upload is not cut off halfway.
    const signal = hooks.signal ?? new AbortController().signal;
    const logger = this.#logger;
    // Hosts a request named are the user's choice: where the deployment gave no fetch for hosts
    // (the self-hosted server trusts its accounts file's), they go through `requestHostFetch`.
    const extraContext =
      target.requestNamesHosts && !this.#extraContext.accountHostFetch
        ? { ...this.#extraContext, accountHostFetch: this.#requestHostFetch }
        : this.#extraContext;
    // Links are tracked once per publish of the target, before its first step: every retry
    // within it sends the same text (and a later dispatch gets the same short links back).
    // Without link tracking (the self-hosted server) there is nothing to wait for.
    const tracked = hooks.linkTracking
      ? await withTrackedLinks(target, hooks, extraContext, logger)
      : undefined;
    const extras = tracked ? linkExtras(tracked) : undefined;
    const run = new TargetRun(tracked?.target ?? target, {
      // One key per step for every attempt: a retry must look like the same request to the platform.
      key: `${hooks.idempotencyKey ?? crypto.randomUUID()}:${account.id}`,
      intent: hooks.intents?.get(account.id),
      hooks,
      policy,
      signal,
      logger,
      extraContext,
    });
    let result: TargetOutcome;
    try {
      const outcome = await this.#limiter.runFor(publisher, account, () => run.publish());
      if (outcome.status === 'posted') {
        logger.info({ accountId: account.id, platform: account.platform }, 'target posted');
      } else {
        logFailure(logger, base, outcome.thrown);
      }
      result = extras ? { ...outcome.result, ...extras } : outcome.result;
    } catch (thrown) {
      // Only the limiter itself (cancelled while waiting for a slot) gets here.
      const error = logFailure(logger, base, thrown);
      result = { ...run.failedBeforeStart(error.toJSON()), ...extras };
    }
    recordPublish(result.platform, publishOutcome(result), startedAt);
    return result;
  }
}

function logFailure(logger: Logger, base: { accountId: string; platform: string }, thrown: unknown) {
  const error = toPlatformError(thrown);
  logger.warn({ ...base, code: error.code, retryable: error.retryable }, 'target failed');
  if (error.code === 'internal') logger.error({ err: thrown }, 'unexpected publisher failure');
  return error;
}

/** A post without media references: nothing resolved, nothing wrong. */
const noMedia = (): ResolvedMedia => ({ files: [], issues: [] });
