import { AlarmLoop, type RoundOutcome } from '#server/background/alarm-loop.ts';
import type { AppContext } from '#server/context.ts';
import { sweepDueDiscards } from '#server/staging/discard.ts';
import {
  claimStagings,
  earliestStageAt,
  renewStagingLeases,
  type StagingClaim,
} from '#server/staging/repository.ts';
import { stageClaimedPost, stagingPlatforms } from '#server/staging/stage-post.ts';
import { LeaseKeeper } from './lease-keeper.ts';

export interface StagerOptions {
  /** How long before its due time a post with video is staged. */
  leadMs: number;
  /** Posts staged at once by this process. */
  concurrency: number;
  leaseMs: number;
  /** The safety-net poll, as the dispatcher's. */
  intervalMs: number;
  owner?: string;
}

/**
 * The staging pass, a sibling of the dispatch loop woken by the same announcements: it uploads
 * the media of posts with video due within the lead (`Publisher.stage`), so that only the final
 * call happens at the due time. It runs beside dispatching, never in its way: uploads take
 * minutes, and a due post never waits for one (a post due while its staging still runs is
 * published as usual). Claims are leased per target and renewed while uploads run, so several
 * instances stage disjoint posts and a dead stager's posts are staged again once its lease ends.
 */
export class Stager {
  readonly #ctx: AppContext;
  readonly #options: StagerOptions;
  readonly #owner: string;
  readonly #platforms: string[];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #loop: AlarmLoop;
  #leases: LeaseKeeper | undefined;
  /** When the next removal of a discarded staged upload is due (from the last sweep). */
  #discardAt: number | undefined;

  constructor(ctx: AppContext, options: StagerOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#owner = options.owner ?? `stage:${crypto.randomUUID()}`;
    this.#platforms = stagingPlatforms(ctx);
    this.#loop = new AlarmLoop({
      round: (signal) => this.#round(signal),
      nextDueAt: async () => {
        // A removal left to retry is looked at no sooner than a second from now.
        const discard =
          this.#discardAt === undefined ? undefined : Math.max(this.#discardAt, Date.now() + 1000);
        // All slots busy: a finishing upload wakes the loop; only then is there room to claim.
        if (this.#inFlight.size >= options.concurrency) return discard;
        const stage = (await earliestStageAt(ctx, options.leadMs, this.#platforms))?.getTime();
        if (stage === undefined) return discard;
        return discard === undefined ? stage : Math.min(stage, discard);
      },
      safetyIntervalMs: options.intervalMs,
      // Something looked due yet nothing could be claimed (a row locked by an edit, a failing
      // database): look again in a second rather than at once, so the loop never spins.
      nothingClaimedBackoffMs: 1000,
      liveness: 'dispatcher',
      holdFile: ctx.config.loopHoldFile,
      logger: ctx.logger,
      messages: {
        roundFailed: 'claiming posts to stage failed',
        nextDueFailed: 'could not read the next staging time; polling',
      },
    });
  }

  /** Whether there is anything to do: a lead, and some platform that can stage. */
  get enabled(): boolean {
    return this.#options.leadMs > 0 && this.#platforms.length > 0;
  }

  start(): void {
    if (this.#loop.started || !this.enabled) return;
    this.#leases = new LeaseKeeper(
      this.#options.leaseMs,
      (ids) => renewStagingLeases(this.#ctx, this.#owner, ids, this.#options.leaseMs),
      (error) => this.#ctx.logger.warn({ err: error }, 'could not renew staging leases'),
    );
    this.#loop.start();
  }

  /** A post is due at `at`: it enters the lead at `at - leadMs`. */
  wake(at: Date = new Date()): void {
    this.#loop.wake(at.getTime() - this.#options.leadMs);
  }

  /** Claims nothing more, aborts uploads in flight (their posts upload at the due time) and waits for them. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.allSettled([...this.#inFlight]);
    await this.#leases?.stop();
  }

  /**
   * One round: removes the due staged uploads of edited or deleted posts (staging/discard.ts), then
   * claims as many posts as there are free slots and starts staging them.
   */
  async #round(signal: AbortSignal): Promise<RoundOutcome> {
    this.#discardAt = await sweepDueDiscards(this.#ctx, signal);
    const free = this.#options.concurrency - this.#inFlight.size;
    if (free <= 0) return 'done';
    const claims = await claimStagings(this.#ctx, this.#owner, {
      limit: free,
      leaseMs: this.#options.leaseMs,
      leadMs: this.#options.leadMs,
      platforms: this.#platforms,
    });
    for (const claim of claims) this.#start(claim);
    if (claims.length === 0) return 'nothing-claimed';
    return claims.length === free ? 'more' : 'done';
  }

  #start(claim: StagingClaim): void {
    const id = claim.post.id;
    this.#leases?.hold(id);
    // Not tracked as shutdown work: an upload cut off by an exit is staged again after its lease,
    // or the post simply uploads at its due time.
    const work = stageClaimedPost(this.#ctx, claim, this.#owner, this.#loop.signal)
      .then(
        (results) => {
          const staged = results.filter((r) => r.status === 'staged').length;
          this.#ctx.logger.info({ postId: id, staged, failed: results.length - staged }, 'post staged');
        },
        (error: unknown) => this.#ctx.logger.error({ err: error, postId: id }, 'staging a post failed'),
      )
      .finally(() => {
        this.#leases?.release(id);
        this.#inFlight.delete(work);
        this.wakeNow();
      });
    this.#inFlight.add(work);
  }

  /** A slot freed: look for more at once. */
  wakeNow(): void {
    this.#loop.wake(Date.now());
  }
}
