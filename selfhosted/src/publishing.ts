import {
  type NormalizedPost,
  type NormalizedValidationRequest,
  type OperationResult,
  type PostingService,
  ProblemError,
  type ProblemIssue,
  problem,
  publicResult,
  type TargetOutcome,
  type ValidationResponse,
  withDeadline,
} from '@postwave/shared';
import type { AccountsStore } from './accounts.ts';
import type { PublishTiming } from './config.ts';
import type { ServiceWebhook } from './webhook.ts';

/**
 * Validate-then-publish for this deployment: accounts come from the accounts file, and every
 * publish is tracked so shutdown can wait for it.
 */
export class Publishing {
  readonly #posting: PostingService;
  readonly #accounts: AccountsStore;
  readonly #timing: PublishTiming;
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #webhook: ServiceWebhook | undefined;
  #accepting = true;

  constructor(
    posting: PostingService,
    accounts: AccountsStore,
    timing: PublishTiming,
    webhook?: ServiceWebhook,
  ) {
    this.#posting = posting;
    this.#accounts = accounts;
    this.#timing = timing;
    this.#webhook = webhook;
  }

  async validate(post: NormalizedValidationRequest): Promise<ValidationResponse> {
    const prepared = await this.#posting.prepare(post, this.#lookup);
    return prepared.validation;
  }

  /** Publishes a `now` post; answers 200 / 207 / 502 (422 when anything is invalid). */
  async publishNow(post: NormalizedPost, idempotencyKey?: string): Promise<OperationResult> {
    this.assertAccepting();
    const prepared = await this.#posting.prepare(post, this.#lookup);
    if (!prepared.targets) {
      throw new ProblemError(
        problem('validation_failed', 'The post is not valid for every account; nothing was published', {
          errors: validationIssues(prepared.validation),
        }),
      );
    }
    const { timeoutMs, maxAttempts, retryBaseMs, retryMaxMs } = this.#timing;
    // Cleared as soon as the publish ends (AbortSignal.timeout would live on for timeoutMs).
    const deadline = withDeadline(undefined, timeoutMs);
    const run = this.#posting.publish(prepared, {
      ...(idempotencyKey ? { idempotencyKey } : {}),
      signal: deadline.signal,
      retryPolicy: {
        maxAttempts,
        baseDelayMs: retryBaseMs,
        maxDelayMs: retryMaxMs,
        deadline: Date.now() + timeoutMs,
      },
    });
    this.#inFlight.add(run);
    try {
      const results = await run;
      this.#webhook?.publishFinished({ message: post.message, accountIds: post.accountIds, results });
      return publishResponse(results);
    } finally {
      deadline.dispose();
      this.#inFlight.delete(run);
    }
  }

  /** Shutdown has begun: publishes already running finish, new ones are refused with 503. */
  stopAccepting(): void {
    this.#accepting = false;
  }

  assertAccepting(): void {
    if (!this.#accepting) {
      throw new ProblemError(
        problem('unavailable', 'The server is shutting down; send the request again in a moment'),
        { 'retry-after': '5' },
      );
    }
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Resolves once every publish that has started has finished. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #lookup = (accountId: string) => this.#accounts.get(accountId);
}

function validationIssues(validation: ValidationResponse): ProblemIssue[] {
  return validation.results.flatMap((result) =>
    result.errors.map((error) => ({ accountId: result.accountId, ...error })),
  );
}

function publishResponse(outcomes: TargetOutcome[]): OperationResult {
  const results = outcomes.map(publicResult);
  const posted = results.filter((r) => r.status === 'posted').length;
  if (posted === results.length) return { status: 200, body: { status: 'posted', results } };
  if (posted > 0) return { status: 207, body: { status: 'partial', results } };
  return {
    status: 502,
    body: problem('publish_failed', 'No account could be published to; see results', { results }),
  };
}
