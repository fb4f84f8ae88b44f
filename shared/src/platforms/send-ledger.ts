import { AttemptMemory } from './attempt-memory.ts';
import type { PublishContext } from './types.ts';

/**
 * For platforms without an idempotency key that can find their own recent posts (`dedupe:
 * 'lookup'`): remembers which sends may have reached the platform, so a retry of the same
 * idempotency key, or a resumed intent of a crashed run, looks for the earlier post before
 * sending again.
 */
export class SendLedger {
  readonly #sent = new AttemptMemory<number>(24 * 60 * 60_000);

  /** When an earlier send of this step may have gone out, or undefined when none did. */
  earlierSend(context: Pick<PublishContext, 'idempotencyKey' | 'resumed'>): Date | undefined {
    const remembered = this.#sent.get(context.idempotencyKey);
    if (remembered !== undefined) return new Date(remembered);
    return context.resumed?.since;
  }

  /** Called right before the call that creates the post. */
  sending(context: Pick<PublishContext, 'idempotencyKey'>): void {
    if (this.#sent.get(context.idempotencyKey) === undefined)
      this.#sent.set(context.idempotencyKey, Date.now());
  }

  /** The post was created and its answer read: nothing is left to find. */
  done(context: Pick<PublishContext, 'idempotencyKey'>): void {
    this.#sent.delete(context.idempotencyKey);
  }
}

/** Clock skew and queueing between our "before sending" and the platform's `created_at`. */
export const lookupSlackMs = 2 * 60_000;

/** Text as posted and as read back compare equal once whitespace runs are one space. */
export function sameText(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
