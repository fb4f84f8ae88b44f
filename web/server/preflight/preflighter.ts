import { AlarmLoop, type RoundOutcome } from '#server/background/alarm-loop.ts';
import type { AppContext } from '#server/context.ts';
import { trackWork } from '#server/lifecycle/shutdown.ts';
import { checkPost } from './check-post.ts';
import { recordCheck } from './record-check.ts';
import { claimPreflights, earliestPreflightAt } from './repository.ts';

export interface PreflighterOptions {
  /** DISPATCH_PREFLIGHT_LEAD_MS: how long before its due time a post is checked; 0: never. */
  leadMs: number;
  /** The safety interval of the loop (the dispatcher's). */
  intervalMs: number;
  /** Posts checked per round. */
  batchSize?: number;
}

/** How often a post at risk is looked at again (a fixed account or file clears the risk). */
export const recheckMs = 5 * 60_000;

/**
 * The pre-flight pass beside the dispatcher (docs/dispatch.md#pre-flight): wakes when a scheduled
 * post enters the lead, checks it (accounts and media), records a risk or clears it. Never
 * publishes, so nothing goes out early; checks run one post at a time, leaving the platforms'
 * rate limits to publishing.
 */
export class Preflighter {
  readonly #ctx: AppContext;
  readonly #options: PreflighterOptions;
  readonly #loop: AlarmLoop;

  constructor(ctx: AppContext, options: PreflighterOptions) {
    this.#ctx = ctx;
    this.#options = options;
    const window = { leadMs: options.leadMs, recheckMs };
    this.#loop = new AlarmLoop({
      round: (signal) => trackWork(this.#round(signal)),
      nextDueAt: async () => (await earliestPreflightAt(ctx, window))?.getTime(),
      safetyIntervalMs: options.intervalMs,
      nothingClaimedBackoffMs: 1000,
      liveness: 'dispatcher',
      holdFile: ctx.config.loopHoldFile,
      logger: ctx.logger,
      messages: {
        roundFailed: 'pre-flight checks failed',
        nextDueFailed: 'could not read the next pre-flight time; polling',
      },
    });
  }

  get enabled(): boolean {
    return this.#options.leadMs > 0;
  }

  start(): void {
    if (this.enabled) this.#loop.start();
  }

  /** A post is due at `at`: it enters the lead at `at - leadMs`. */
  wake(at: Date = new Date()): void {
    this.#loop.wake(at.getTime() - this.#options.leadMs);
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #round(signal: AbortSignal): Promise<RoundOutcome> {
    const limit = this.#options.batchSize ?? 20;
    const checked = await preflightDuePosts(this.#ctx, { leadMs: this.#options.leadMs, limit, signal });
    if (checked === 0) return 'nothing-claimed';
    return checked === limit ? 'more' : 'done';
  }
}

/** One pass: claims up to `limit` posts due for a check and checks them one by one; answers how many. */
export async function preflightDuePosts(
  ctx: AppContext,
  options: { leadMs: number; limit: number; signal?: AbortSignal },
): Promise<number> {
  const claims = await claimPreflights(ctx, { leadMs: options.leadMs, recheckMs, limit: options.limit });
  for (const post of claims) {
    if (options.signal?.aborted) break;
    try {
      await recordCheck(ctx, post, await checkPost(ctx, post));
    } catch (error) {
      ctx.logger.warn({ err: error, postId: post.id }, 'pre-flight check of a post failed');
    }
  }
  return claims.length;
}
