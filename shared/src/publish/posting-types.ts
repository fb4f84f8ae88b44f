import type { MediaFile } from '../media/media-file.ts';
import type { AnyPublisher, PlatformAccount } from '../platforms/types.ts';
import type { MediaReference } from '../schemas/media.ts';
import type { NormalizedOverride, NormalizedThreadPart } from '../schemas/post.ts';
import type {
  FirstCommentResult,
  TargetDetails,
  TargetPart,
  TargetResult,
  ValidationResponse,
} from '../schemas/results.ts';
import type { RetryPolicy } from './retry.ts';
import type { TargetLinkHooks } from './tracked-links.ts';

/**
 * The shapes the posting service takes and gives: a post's input, the prepared targets, the
 * publish hooks an adapter passes, and each target's outcome (posting.ts is the service itself).
 */
export interface PostInput {
  message: string;
  accountIds: readonly string[];
  media: readonly MediaReference[];
  /** Per-account options keyed by account id; merged over the account's own `options`. */
  accountOptions?: Readonly<Record<string, Record<string, unknown>>>;
  /** Per-account versions: a given `message` or `media` replaces the base one for that account. */
  overrides?: Readonly<Record<string, NormalizedOverride>>;
  /** Posts after the first message, published as a reply chain on every target. */
  thread?: readonly NormalizedThreadPart[];
}

/** Finds an account by id for the current caller (the accounts file, or one user's accounts). */
export type AccountLookup = (
  accountId: string,
) => PlatformAccount | undefined | Promise<PlatformAccount | undefined>;

/** One thread part after the first message, its media resolved. */
export interface PreparedPart {
  message: string;
  media: MediaFile[];
}

export interface PreparedTarget {
  account: PlatformAccount;
  publisher: AnyPublisher;
  /** The platform's options, without `firstComment` (which the posting service handles itself). */
  options: Record<string, unknown>;
  /** This target's first message: its override, else the base post's. */
  message: string;
  media: MediaFile[];
  thread: PreparedPart[];
  firstComment?: string;
  /** The request itself named hosts to connect to (an option with `namesHosts`): they follow the address policy. */
  requestNamesHosts?: true;
}

export interface PreparedPost {
  validation: ValidationResponse;
  /** Present only when every target is valid. */
  targets?: PreparedTarget[];
  /** The base post (targets carry their own versions). */
  message: string;
  media: MediaFile[];
}

/**
 * One step of publishing a target: a part of the post (0: the first message, 1…: the thread)
 * or its first comment. Each step is sent once, with its own idempotency key
 * (`<key>:<account>` for part 0, `<key>:<account>:part:<i>`, `<key>:<account>:comment`).
 */
export type PublishStep = number | 'firstComment';

/** A step that reached the platform, as a caller stores it to continue after it later. */
export interface PostedStep {
  platformPostId: string;
  url?: string;
  /** `PublishResult.replyRef`: what a reply to it needs (opaque). */
  replyRef?: string;
  /** `PublishResult.details`: what the platform reported beyond the id. */
  details?: TargetDetails;
}

export interface PostedPart extends PostedStep {
  index: number;
}

export interface PublishHooks extends TargetLinkHooks {
  /** Base for per-target idempotency keys, so a retried post is recognised by platforms that support it. */
  idempotencyKey?: string;
  onCredentialsRefreshed?: (accountId: string, credentials: Record<string, unknown>) => void | Promise<void>;
  signal?: AbortSignal;
  retryPolicy?: RetryPolicy;
  /** Per account id: the publish intent stored before sending (see `PublishContext.dedupeHandle`, `resumed`). */
  intents?: ReadonlyMap<string, TargetIntent>;
  /**
   * Called when a step of a target is posted and another step follows, before that one is sent:
   * the caller records the posted step and the next step's publish intent (its dedupe handle)
   * in one write, so a crash in between neither loses the posted part nor sends it twice. Answers
   * the handle to send the next step with (the one given, unless the caller keeps another).
   * A throw fails the target at the next step, which a retry then continues from.
   */
  onStepPosted?: (
    accountId: string,
    posted: { step: PublishStep; result: PostedStep },
    next: { step: PublishStep; dedupeHandle: string | null },
  ) => Promise<string | null | undefined | undefined>;
  /**
   * Called when a call to the platform failed retryably and is tried again at once (within this
   * publish): the caller may record the failed call. Errors thrown here are logged by the caller's
   * own means; they never fail the publish.
   */
  onCallRetried?: (
    accountId: string,
    call: {
      step: PublishStep;
      error: { code: string; message: string; retryable: boolean; platformStatus?: number };
    },
  ) => Promise<void>;
}

/**
 * What a caller stored about a target before sending it. `dedupeHandle` and `resumed` belong to
 * the first step still to send (part 0 of a new target; the failed or interrupted step of a
 * retried one); `parts` and `firstComment` are what earlier attempts posted, never sent again.
 */
export interface TargetIntent {
  dedupeHandle?: string;
  resumed?: { since: Date };
  /** The target's still-valid `Publisher.stage` handle for part 0 (see `PublishContext.staged`). */
  staged?: string;
  /** Parts an earlier attempt posted (from index 0, in order); publishing continues after them. */
  parts?: readonly PostedPart[];
  /** The first comment, when an earlier attempt posted it. */
  firstComment?: PostedStep;
}

/** A part's outcome as the service returns it: the public `TargetPart` plus the reply reference to store. */
export interface PartOutcome extends TargetPart {
  replyRef?: string;
}

export interface FirstCommentOutcome extends FirstCommentResult {
  replyRef?: string;
}

/** A target's outcome: `TargetResult` whose parts carry their reply references (see `publicResult`). */
export interface TargetOutcome extends TargetResult {
  parts?: PartOutcome[];
  firstComment?: FirstCommentOutcome;
}

/** The result as an API answers it: reply references are the server's to keep. */
export function publicResult(outcome: TargetOutcome): TargetResult {
  // A plain post (no thread, no first comment) holds no reply reference: it is its own answer.
  if (outcome.parts === undefined && outcome.firstComment === undefined) return outcome;
  const { parts, firstComment, ...rest } = outcome;
  return {
    ...rest,
    ...(parts ? { parts: parts.map(({ replyRef: _, ...part }) => part) } : {}),
    ...(firstComment ? { firstComment: withoutReplyRef(firstComment) } : {}),
  };
}

function withoutReplyRef({ replyRef: _, ...rest }: FirstCommentOutcome): FirstCommentResult {
  return rest;
}
