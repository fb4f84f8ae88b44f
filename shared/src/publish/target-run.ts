import type { z } from 'zod';
import { toPlatformError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { MediaFile } from '../media/media-file.ts';
import type { PlatformAccount, PublishContext, PublishResult, ReplyTarget } from '../platforms/types.ts';
import type { TargetError } from '../schemas/results.ts';
import type {
  FirstCommentOutcome,
  PartOutcome,
  PostedPart,
  PostedStep,
  PreparedTarget,
  PublishHooks,
  PublishStep,
  TargetIntent,
  TargetOutcome,
} from './posting.ts';
import { type RetryPolicy, withRetry } from './retry.ts';

type ErrorJson = z.infer<typeof TargetError>;

export interface TargetRunSettings {
  /** The target's idempotency key (`<post key>:<account id>`); each step derives its own from it. */
  key: string;
  intent: TargetIntent | undefined;
  hooks: PublishHooks;
  policy: RetryPolicy;
  signal: AbortSignal;
  logger: Logger;
  extraContext: Pick<PublishContext, 'resolveOwnMedia' | 'accountHostFetch'>;
}

export interface TargetRunOutcome {
  status: 'posted' | 'failed';
  result: TargetOutcome;
  /** What failed, for the log. */
  thrown?: unknown;
}

/** The idempotency key of one step: part 0 keeps the target's own key, so plain posts are unchanged. */
export function stepKey(targetKey: string, step: PublishStep): string {
  if (step === 0) return targetKey;
  return step === 'firstComment' ? `${targetKey}:comment` : `${targetKey}:part:${step}`;
}

/**
 * Publishing one target step by step: the first message, each thread part as a reply to the one
 * before (root: the first), then the first comment. Steps an earlier attempt posted
 * (`TargetIntent.parts`, `.firstComment`) are never sent again; the chain continues from their
 * stored reply references. The first failure stops the target: earlier steps stay posted, later
 * ones are `pending` for a retry.
 */
export class TargetRun {
  readonly #target: PreparedTarget;
  readonly #settings: TargetRunSettings;
  #account: PlatformAccount;
  readonly #parts: PartOutcome[] = [];
  #comment: FirstCommentOutcome | undefined;
  /** The step this run posted last, not yet reported to `onStepPosted`. */
  #unreported: { step: PublishStep; result: PostedStep } | undefined;
  /** Whether a step has been sent in this run (the intent's handle belongs to the first). */
  #sentAny = false;

  constructor(target: PreparedTarget, settings: TargetRunSettings) {
    this.#target = target;
    this.#settings = settings;
    this.#account = target.account;
  }

  async publish(): Promise<TargetRunOutcome> {
    const { thread, firstComment } = this.#target;
    const total = thread.length + 1;
    const earlier = earlierParts(this.#settings.intent);
    let root: PublishResult | undefined;
    let parent: PublishResult | undefined;
    for (let index = 0; index < total; index++) {
      const done = earlier?.get(index);
      if (done && (index === 0 || parent)) {
        this.#parts.push(postedPart(index, done));
        parent = postedStep(done);
        root ??= parent;
        continue;
      }
      const part = index === 0 ? this.#target : thread[index - 1]!;
      const replyTo = root && parent ? { parent, root } : undefined;
      try {
        const result = await this.#sendPart(index, part.message, part.media, replyTo);
        this.#parts.push(postedPart(index, result));
        parent = result;
        root ??= result;
      } catch (thrown) {
        return this.#fail(index, thrown);
      }
    }
    if (firstComment !== undefined) {
      const stored = this.#settings.intent?.firstComment;
      if (stored) {
        this.#comment = { status: 'posted', ...stored };
      } else {
        try {
          const result = await this.#sendComment(firstComment, root!);
          this.#comment = { status: 'posted', ...postedStep(result) };
        } catch (thrown) {
          return this.#fail('firstComment', thrown);
        }
      }
    }
    return { status: 'posted', result: this.#result('posted') };
  }

  /** The limiter refused before any step was sent (cancelled): the first unsent step failed. */
  failedBeforeStart(error: ErrorJson): TargetOutcome {
    const earlier = earlierParts(this.#settings.intent);
    const total = this.#target.thread.length + 1;
    let failed = false;
    for (let index = 0; index < total; index++) {
      const done = earlier?.get(index);
      if (done && !failed) this.#parts.push(postedPart(index, done));
      else {
        this.#parts.push({ index, status: failed ? 'pending' : 'failed', ...(failed ? {} : { error }) });
        failed = true;
      }
    }
    if (this.#target.firstComment !== undefined) {
      const stored = this.#settings.intent?.firstComment;
      this.#comment = stored
        ? { status: 'posted', ...stored }
        : failed
          ? { status: 'pending' }
          : { status: 'failed', error };
    }
    return this.#result('failed', error);
  }

  #fail(step: PublishStep, thrown: unknown): TargetRunOutcome {
    const error = toPlatformError(thrown).toJSON();
    const total = this.#target.thread.length + 1;
    if (typeof step === 'number') {
      this.#parts.push({ index: step, status: 'failed', error });
      for (let index = step + 1; index < total; index++) this.#parts.push({ index, status: 'pending' });
      if (this.#target.firstComment !== undefined) this.#comment = { status: 'pending' };
    } else {
      this.#comment = { status: 'failed', error };
    }
    return {
      status: 'failed',
      result: this.#result('failed', { ...error, message: describe(step, total, error.message) }),
      thrown,
    };
  }

  #result(status: 'posted' | 'failed', error?: ErrorJson): TargetOutcome {
    const { account, thread, firstComment } = this.#target;
    const first = this.#parts[0];
    return {
      accountId: account.id,
      platform: account.platform,
      status,
      ...(first?.platformPostId ? { platformPostId: first.platformPostId } : {}),
      ...(first?.url ? { url: first.url } : {}),
      ...(first?.details ? { details: first.details } : {}),
      ...(error ? { error } : {}),
      ...(thread.length > 0 ? { parts: this.#parts } : {}),
      ...(firstComment !== undefined && this.#comment ? { firstComment: this.#comment } : {}),
    };
  }

  #sendPart(
    index: number,
    message: string,
    media: MediaFile[],
    replyTo: ReplyTarget | undefined,
  ): Promise<PublishResult> {
    const { publisher, options } = this.#target;
    return this.#send(index, (context) =>
      publisher.publish({ message }, this.#account, media, options, {
        ...context,
        ...(replyTo ? { replyTo } : {}),
      }),
    );
  }

  /** A comment where the platform has comments; elsewhere a reply to the first message. */
  #sendComment(text: string, root: PublishResult): Promise<PublishResult> {
    const { publisher, options } = this.#target;
    return this.#send('firstComment', (context) =>
      publisher.comment
        ? publisher.comment(root, text, this.#account, options, context)
        : publisher.publish({ message: text }, this.#account, [], options, {
            ...context,
            replyTo: { parent: root, root },
          }),
    );
  }

  async #send(step: PublishStep, call: (context: PublishContext) => Promise<PublishResult>) {
    const { key, intent, hooks, policy, signal, logger, extraContext } = this.#settings;
    const { account, publisher } = this.#target;
    const idempotencyKey = stepKey(key, step);
    let dedupeHandle: string | undefined;
    let resumed: { since: Date } | undefined;
    if (this.#unreported) {
      // Record what was posted, and this step's intent, before sending it.
      const proposed = publisher.dedupeHandle?.(idempotencyKey) ?? null;
      const answered = hooks.onStepPosted
        ? await hooks.onStepPosted(account.id, this.#unreported, { step, dedupeHandle: proposed })
        : undefined;
      this.#unreported = undefined;
      dedupeHandle = (answered === undefined ? proposed : answered) ?? undefined;
    } else if (!this.#sentAny) {
      dedupeHandle = intent?.dedupeHandle;
      resumed = intent?.resumed;
    }
    this.#sentAny = true;
    // Media staged ahead of the due time belongs to the first message only.
    const staged = step === 0 ? intent?.staged : undefined;
    // The same for every attempt of the step, so made once.
    const context: PublishContext = {
      signal,
      idempotencyKey,
      logger,
      ...(dedupeHandle ? { dedupeHandle } : {}),
      ...(resumed ? { resumed } : {}),
      ...(staged ? { staged } : {}),
      onCredentialsRefreshed: async (credentials) => {
        this.#account = { ...this.#account, credentials };
        await hooks.onCredentialsRefreshed?.(account.id, credentials);
      },
      ...extraContext,
    };
    const result = await withRetry(
      (attempt) => {
        logger.debug(
          { accountId: account.id, platform: account.platform, step, attempt },
          'publishing target',
        );
        return call(context);
      },
      policy,
      signal,
      Math.random,
      async (error) => {
        await hooks.onCallRetried?.(account.id, { step, error: error.toJSON() }).catch((failure: unknown) => {
          logger.warn({ err: failure, accountId: account.id }, 'could not record a retried call');
        });
      },
    );
    this.#unreported = { step, result: postedStep(result) };
    return result;
  }
}

/** Steps an earlier attempt posted, by index (none: undefined, and no map made). */
function earlierParts(intent: TargetIntent | undefined): Map<number, PostedPart> | undefined {
  const parts = intent?.parts;
  return parts?.length ? new Map(parts.map((p) => [p.index, p])) : undefined;
}

function postedStep(result: PublishResult): PostedStep {
  return {
    platformPostId: result.platformPostId,
    ...(result.url ? { url: result.url } : {}),
    ...(result.replyRef ? { replyRef: result.replyRef } : {}),
    ...(result.details ? { details: result.details } : {}),
  };
}

function postedPart(index: number, result: PostedStep): PartOutcome {
  return { index, status: 'posted', ...postedStep(result) };
}

/** The target's error message says which step failed, so nobody mistakes a failed reply for a failed post. */
function describe(step: PublishStep, total: number, message: string): string {
  if (step === 0) return message;
  if (step === 'firstComment') return `The post is published but its first comment failed: ${message}`;
  return `Thread part ${step} of ${total - 1} failed (the parts before it are published; a retry continues from this one): ${message}`;
}
