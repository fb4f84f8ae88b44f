import type { AppContext } from '#server/context.ts';
import { isShuttingDown } from '#server/lifecycle/shutdown.ts';
import { sweepDueDiscards } from '#server/staging/discard.ts';
import {
  claimStagings,
  earliestStageAt,
  renewStagingLeases,
  type StagingClaim,
} from '#server/staging/repository.ts';
import { stageClaimedPost, stagingPlatforms } from '#server/staging/service.ts';
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
  readonly #stopping = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #leases: LeaseKeeper | undefined;
  #alarm = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #wakeSleeper: (() => void) | undefined;
  #dirty = false;
  #loop: Promise<void> | undefined;

  constructor(ctx: AppContext, options: StagerOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#owner = options.owner ?? `stage:${crypto.randomUUID()}`;
    this.#platforms = stagingPlatforms(ctx);
  }

  /** Whether there is anything to do: a lead, and some platform that can stage. */
  get enabled(): boolean {
    return this.#options.leadMs > 0 && this.#platforms.length > 0;
  }

  start(): void {
    if (this.#loop || !this.enabled) return;
    this.#leases = new LeaseKeeper(
      this.#options.leaseMs,
      (ids) => renewStagingLeases(this.#ctx, this.#owner, ids, this.#options.leaseMs),
      (error) => this.#ctx.logger.warn({ err: error }, 'could not renew staging leases'),
    );
    this.#loop = this.#run();
  }

  /** A post is due at `at`: it enters the lead at `at - leadMs`. */
  wake(at: Date = new Date()): void {
    const when = at.getTime() - this.#options.leadMs;
    if (!this.#wakeSleeper) {
      this.#dirty = true;
      return;
    }
    if (when < this.#alarm) this.#arm(when);
  }

  /** Claims nothing more, aborts uploads in flight (their posts upload at the due time) and waits for them. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wakeSleeper?.();
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
    await this.#leases?.stop();
  }

  async #run(): Promise<void> {
    const ctx = this.#ctx;
    const signal = this.#stopping.signal;
    while (!signal.aborted && !isShuttingDown()) {
      this.#dirty = false;
      // Staged uploads of edited or deleted posts, left to remove from the platform (staging/discard.ts).
      const discardAt = await sweepDueDiscards(ctx, signal);
      const free = this.#options.concurrency - this.#inFlight.size;
      let full = false;
      let claimedNone = false;
      if (free > 0) {
        try {
          const claims = await claimStagings(ctx, this.#owner, {
            limit: free,
            leaseMs: this.#options.leaseMs,
            leadMs: this.#options.leadMs,
            platforms: this.#platforms,
          });
          for (const claim of claims) this.#start(claim);
          full = claims.length === free;
          claimedNone = claims.length === 0;
        } catch (error) {
          ctx.logger.error({ err: error }, 'claiming posts to stage failed');
          claimedNone = true;
        }
      }
      if (signal.aborted) break;
      if (this.#dirty || full) continue;
      let next = Date.now() + this.#options.intervalMs;
      if (discardAt !== undefined) next = Math.min(next, Math.max(discardAt, Date.now() + 1000));
      // All slots busy: a finishing upload wakes the loop; only then is there room to claim.
      if (this.#inFlight.size < this.#options.concurrency) {
        try {
          const at = await earliestStageAt(ctx, this.#options.leadMs, this.#platforms);
          if (at) next = Math.min(next, at.getTime());
        } catch (error) {
          ctx.logger.warn({ err: error }, 'could not read the next staging time; polling');
        }
      }
      // Something looked due yet nothing could be claimed (a row locked by an edit, a failing
      // database): look again in a second rather than at once, so the loop never spins.
      if (claimedNone) next = Math.max(next, Date.now() + 1000);
      if (this.#dirty || signal.aborted || isShuttingDown()) continue;
      await this.#sleepUntil(next);
    }
  }

  #start(claim: StagingClaim): void {
    const id = claim.post.id;
    this.#leases?.hold(id);
    // Not tracked as shutdown work: an upload cut off by an exit is staged again after its lease,
    // or the post simply uploads at its due time.
    const work = stageClaimedPost(this.#ctx, claim, this.#owner, this.#stopping.signal)
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
    if (!this.#wakeSleeper) this.#dirty = true;
    else this.#arm(Date.now());
  }

  #sleepUntil(at: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wakeSleeper = () => {
        clearTimeout(this.#timer);
        this.#wakeSleeper = undefined;
        this.#alarm = Number.POSITIVE_INFINITY;
        resolve();
      };
      this.#arm(at);
    });
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#alarm = at;
    const delay = Math.max(0, at - Date.now() + 1);
    this.#timer = setTimeout(() => this.#wakeSleeper?.(), delay);
    this.#timer.unref();
  }
}
