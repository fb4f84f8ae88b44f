import { toPlatformError } from '../errors.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import { publicHostsFetch } from '../http/safe-fetch.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { MediaFile } from '../media/media-file.ts';
import { publishOutcome, recordPublish } from '../metrics/registry.ts';
import { cachedOptionChoicesLoader, type OptionChoicesLoader } from '../platforms/option-choices.ts';
import { visibleOptions } from '../platforms/option-fields.ts';
import type { PublisherRegistry } from '../platforms/registry.ts';
import type { PublishContext } from '../platforms/types.ts';
import type { NormalizedOverride } from '../schemas/post.ts';
import type { AccountValidation, ValidationIssue, ValidationResponse } from '../schemas/results.ts';
import type { Storage } from '../storage/types.ts';
import { checkFeatures } from './composer-checks.ts';
import { PlatformLimiter } from './limiter.ts';
import { checkOptionFields, optionFieldsNeedChecks, uniqueIssues } from './option-checks.ts';
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
  readonly #publishers: PublisherRegistry;
  readonly #storage: Storage;
  readonly #logger: Logger;
  readonly #limiter: PlatformLimiter;
  readonly #unknownAccount: (accountId: string) => { code: string; message: string };
  readonly #resolveOwnMedia: ((url: string) => Promise<MediaFile | null>) | undefined;
  readonly #accountHostFetch: FetchLike | undefined;
  readonly #loadOptionChoices: OptionChoicesLoader;
  /** What every validate and publish context carries besides the call's own (built once). */
  readonly #extraContext: Pick<PublishContext, 'resolveOwnMedia' | 'accountHostFetch'>;

  constructor(options: PostingServiceOptions) {
    this.#publishers = options.publishers;
    this.#storage = options.storage;
    this.#logger = options.logger ?? silentLogger;
    this.#limiter = options.limiter ?? new PlatformLimiter();
    this.#unknownAccount = options.unknownAccount ?? accountNotFound;
    this.#resolveOwnMedia = options.resolveOwnMedia ?? ownMediaResolver(options.storage);
    this.#accountHostFetch = options.accountHostFetch;
    this.#extraContext = {
      resolveOwnMedia: this.#resolveOwnMedia,
      ...(this.#accountHostFetch ? { accountHostFetch: this.#accountHostFetch } : {}),
    };
    this.#loadOptionChoices =
      options.loadOptionChoices ??
      cachedOptionChoicesLoader({
        logger: this.#logger,
        ...(options.accountHostFetch ? { accountHostFetch: options.accountHostFetch } : {}),
      });
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
      accountIds.map((accountId) => this.#validateTarget(post, accountId, lookup, base!, parts)),
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

  async #validateTarget(
    post: PostInput,
    accountId: string,
    lookup: AccountLookup,
    base: ResolvedMedia,
    threadMedia: ResolvedMedia[],
  ): Promise<{ result: AccountValidation; target?: PreparedTarget }> {
    const found = lookup(accountId);
    const account = found instanceof Promise ? await found : found;
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
    // This account's version: an override's fields replace the base post's.
    const override = post.overrides?.[accountId];
    const message = override?.message ?? post.message;
    const mediaPath = override?.media ? `overrides.${accountId}.media` : 'media';
    const mediaRefs = override?.media ?? post.media;
    const resolved = override?.media ? await resolveMedia(override.media, this.#storage, mediaPath) : base;
    // A platform without threads posts only the first message (warning `thread_unsupported`).
    const traits = this.#publishers.traits(account.platform);
    const hasThreads = traits.features.thread;
    const thread = hasThreads ? (post.thread ?? []) : [];
    const mediaIssues =
      threadMedia.length === 0
        ? resolved.issues
        : [...resolved.issues, ...threadMedia.flatMap((m) => m.issues)];

    const optionFields = traits.options ?? [];
    // Values of fields their `showWhen` hides are neither validated nor published.
    const { firstComment: rawComment, ...rawOptions } = visibleOptions(optionFields, {
      ...account.options,
      ...post.accountOptions?.[accountId],
    });
    if (rawComment !== undefined && typeof rawComment !== 'string') {
      return {
        result: invalid(accountId, account.platform, [
          ...mediaIssues,
          {
            code: 'invalid_option',
            message: 'firstComment must be a string',
            path: `accountOptions.${accountId}.firstComment`,
          },
        ]),
      };
    }
    // A blank first comment is no first comment (a composer sends the empty field as "").
    const firstComment = rawComment?.trim() ? rawComment : undefined;
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
    const context = this.#extraContext;
    const features = checkFeatures(publisher, traits, {
      accountId,
      threadParts: post.thread?.length ?? 0,
      firstComment,
      options,
      media: [
        { path: mediaPath, refs: mediaRefs },
        ...thread.map((part, i) => ({ path: `thread[${i}].media`, refs: part.media })),
      ],
    });
    // Without a field it could flag there is nothing for checkOptionFields to find: skip its promise.
    const [first, fieldChecks] = !optionFieldsNeedChecks(publisher, optionFields)
      ? [await publisher.validate({ message }, account, resolved.files, options, context), noIssues]
      : await Promise.all([
          publisher.validate({ message }, account, resolved.files, options, context),
          checkOptionFields({
            publisher,
            account,
            fields: optionFields,
            options,
            load: this.#loadOptionChoices,
          }),
        ]);
    const errors = [
      ...mediaIssues,
      ...first.errors.map((issue) => overridePath(issue, accountId, override)),
      ...fieldChecks.errors,
      ...features.errors,
    ];
    const warnings = [...first.warnings, ...fieldChecks.warnings, ...features.warnings];
    // Each part is checked with the platform's own rules (none where the platform posts no parts).
    const outcomes =
      thread.length === 0
        ? []
        : await Promise.all(
            thread.map((part, i) =>
              publisher.validate({ message: part.message }, account, threadMedia[i]!.files, options, context),
            ),
          );
    for (const [i, outcome] of outcomes.entries()) {
      errors.push(...outcome.errors.map((issue) => inThreadPart(issue, i)));
      warnings.push(...outcome.warnings.map((issue) => inThreadPart(issue, i)));
    }
    const result: AccountValidation = {
      accountId,
      platform: account.platform,
      valid: errors.length === 0,
      errors: uniqueIssues(errors),
      warnings: uniqueIssues(warnings),
    };
    const target: PreparedTarget = {
      account,
      publisher,
      options,
      message,
      media: resolved.files,
      thread: thread.map((part, i) => ({ message: part.message, media: threadMedia[i]!.files })),
      ...(firstComment !== undefined ? { firstComment } : {}),
      ...(optionFields.some((f) => f.namesHosts && post.accountOptions?.[accountId]?.[f.name] !== undefined)
        ? { requestNamesHosts: true as const }
        : {}),
    };
    return { result, target };
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
    // Hosts a request named are the user's choice: where the deployment gave no fetch for such
    // hosts (the self-hosted server trusts its accounts file's), the default address policy holds.
    const extraContext =
      target.requestNamesHosts && !this.#extraContext.accountHostFetch
        ? { ...this.#extraContext, accountHostFetch: publicHostsFetch() }
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

/** A platform issue of the first message, pointed at the override that produced it. */
function overridePath(
  issue: ValidationIssue,
  accountId: string,
  override: NormalizedOverride | undefined,
): ValidationIssue {
  if (!override || !issue.path) return issue;
  const fromOverride =
    (override.message !== undefined && issue.path === 'message') ||
    (override.media !== undefined && issue.path.startsWith('media'));
  return fromOverride ? { ...issue, path: `overrides.${accountId}.${issue.path}` } : issue;
}

/** A platform issue of thread part `i` (request path `thread[i]`). */
function inThreadPart(issue: ValidationIssue, i: number): ValidationIssue {
  return {
    ...issue,
    message: `Thread part ${i + 1}: ${issue.message}`,
    path: issue.path ? `thread[${i}].${issue.path}` : `thread[${i}]`,
  };
}

/** No option fields, no option issues (shared, never written to). */
const noIssues: { errors: readonly ValidationIssue[]; warnings: readonly ValidationIssue[] } = Object.freeze({
  errors: Object.freeze([]) as readonly ValidationIssue[],
  warnings: Object.freeze([]) as readonly ValidationIssue[],
});

/** A post without media references: nothing resolved, nothing wrong. */
const noMedia = (): ResolvedMedia => ({ files: [], issues: [] });

function invalid(accountId: string, platform: string, errors: ValidationIssue[]): AccountValidation {
  return { accountId, platform, valid: false, errors, warnings: [] };
}
