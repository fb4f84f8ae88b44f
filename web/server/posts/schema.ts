import {
  AccountId,
  AccountOptions,
  MediaReference,
  type NormalizedOverride,
  type NormalizedThreadPart,
  normalizeMedia,
  normalizeOverrides,
  normalizeThread,
  Overrides,
  PostingMode,
  PostMediaObject,
  ProblemError,
  parseOffsetDateTime,
  postingModes,
  problem,
  StoredTargetResult,
  Thread,
} from '@postwave/shared';
import { z } from 'zod';
import { postStatuses, type RecycleSettings } from '#server/db/schema.ts';
import { pageLimit } from '#server/http/query.ts';
import { TargetStaging } from '#server/staging/schema.ts';
import { Recycle, RecycleField } from './recycle-schema.ts';

/** A scheduled post's problem found before its due time (docs/dispatch.md#pre-flight). */
export const PostRisk = z
  .object({
    code: z.string(),
    message: z.string(),
    hint: z.string(),
    accountId: z.string().optional(),
    checkedAt: z.string(),
  })
  .meta({ id: 'PostRisk' });

const ApprovalActor = z
  .object({
    type: z.enum(['member', 'assistant', 'reviewer']),
    id: z
      .string()
      .optional()
      .meta({ description: 'The member (for an assistant: the member who granted it).' }),
    name: z.string().meta({ description: "The member's name, the assistant's, or the name a client typed." }),
  })
  .meta({ id: 'ApprovalActor' });

/** A post's submission for approval and its last decision (docs/workspaces.md#approvals). */
export const PostApproval = z
  .object({
    requested: z.object({
      postingMode: z.enum(['now', 'schedule', 'queue']),
      scheduledAt: z.string().optional(),
    }),
    requestedBy: ApprovalActor,
    requestedAt: z.string(),
    reason: z.enum(['approvals', 'assistants']).optional().meta({
      description:
        '`approvals`: the workspace setting applies to the submitter (its author never approves it). `assistants`: an assistant posted under `assistantsRequireApproval`; the member who granted the assistant may approve it (that is the confirmation the setting asks for).',
    }),
    approved: z.object({ by: ApprovalActor, at: z.string(), comment: z.string().optional() }).optional(),
    rejected: z.object({ by: ApprovalActor, at: z.string(), comment: z.string() }).optional(),
  })
  .meta({
    id: 'PostApproval',
    description:
      'What the submitter asked for (`requested`: the publish, schedule or queue request that waits), who and when; after a decision `approved` or `rejected` (with the comment). A new submission replaces it. `null` for a post never submitted.',
  });

/** A stored post as the API answers it, with one result per target that finished. */
export const Post = z
  .object({
    id: z.string(),
    status: z.enum(postStatuses),
    message: z.string(),
    accountIds: z.array(z.string()),
    media: z.array(PostMediaObject),
    accountOptions: AccountOptions,
    overrides: z
      .record(
        z.string(),
        z.object({ message: z.string().optional(), media: z.array(PostMediaObject).optional() }),
      )
      .meta({
        description: 'Per-account versions as stored (keys among `accountIds`); `{}` when none.',
      }),
    thread: z.array(z.object({ message: z.string(), media: z.array(PostMediaObject) })).meta({
      description: 'The parts after the first message; `[]` when none. Each result lists its `parts`.',
    }),
    scheduledAt: z.string().nullable(),
    postedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    results: z.array(StoredTargetResult),
    staging: z.array(TargetStaging).meta({
      description:
        'Targets whose media is uploaded to the platform ahead of the due time (posts with video, on platforms that allow publishing an upload later; `DISPATCH_STAGE_LEAD_MS` before `scheduledAt`). Empty when nothing was staged. Editing the message, media, accounts or options clears it; rescheduling clears only uploads the platform forgets before the new time.',
    }),
    risk: PostRisk.nullable().meta({
      description:
        'What the pre-flight check (`DISPATCH_PREFLIGHT_LEAD_MS` before the due time) found wrong with a scheduled post: an account that needs reconnecting or cannot be reached, a file that no longer reads back. `null` when all was well or the post was not checked. A later check that finds nothing clears it; the post still publishes at its time, never earlier.',
    }),
    recycle: Recycle.nullable().meta({
      description:
        'Evergreen recycling settings of an original post (docs/recycling.md); `null` when off and on copies.',
    }),
    recycledFrom: z
      .string()
      .nullable()
      .meta({ description: 'On a recycled copy: the original post it was made from; `null` otherwise.' }),
    recycleIndex: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'On a recycled copy: which copy it is, 1 first; `null` otherwise.' }),
    approval: PostApproval.nullable(),
  })
  .meta({ id: 'Post' });
export type PostView = z.infer<typeof Post>;

export const ListPostsQuery = z.object({
  status: z.enum(postStatuses).optional(),
  limit: pageLimit(),
  cursor: z.string().max(500).optional(),
});

export const PostPage = z
  .object({ posts: z.array(Post), nextCursor: z.string().nullable() })
  .meta({ id: 'PostPage' });

/** A well-formed but unusable date is 422 (as for post creation), a wrong type 400. */
export function parseScheduledAt(value: string): Date {
  const when = parseOffsetDateTime(value);
  if (!when) {
    throw new ProblemError(
      problem('validation_failed', 'scheduledAt must be an ISO 8601 date-time with an offset', {
        errors: [
          { path: 'scheduledAt', code: 'invalid_datetime', message: 'Use e.g. 2026-12-01T09:30:00+01:00' },
        ],
      }),
    );
  }
  return when;
}

export interface PostPatch {
  message?: string | undefined;
  accountIds?: string[] | undefined;
  media?: MediaReference[] | undefined;
  accountOptions?: AccountOptions | undefined;
  overrides?: Record<string, NormalizedOverride> | undefined;
  thread?: NormalizedThreadPart[] | undefined;
  scheduledAt?: Date | null | undefined;
  /** Evergreen settings: null turns recycling off (docs/recycling.md). */
  recycle?: RecycleSettings | null | undefined;
}

export const PostPatchRequest = z
  .object({
    message: z.string().max(100_000).optional(),
    accountIds: z.array(AccountId).min(1).max(100).optional(),
    media: z
      .union([MediaReference, z.array(MediaReference).max(50)])
      .nullable()
      .optional(),
    accountOptions: AccountOptions.optional(),
    overrides: Overrides.optional().meta({
      description:
        'Replaces every override (`{}` removes them). Left out, the stored overrides stay, except those of accounts this request removes from `accountIds`.',
    }),
    thread: Thread.optional().meta({ description: 'Replaces the thread (`[]` removes it).' }),
    scheduledAt: z.string().nullable().optional(),
    recycle: RecycleField,
  })
  .meta({ id: 'PostPatchRequest' });

/** `recycle` is read from the raw body (parseRecycle): a wrong type is a 400, a bad value a 422, each naming its field. */
export function toPostPatch(
  body: z.infer<typeof PostPatchRequest>,
  recycle?: RecycleSettings | null,
): PostPatch {
  return {
    recycle,
    message: body.message,
    accountIds: body.accountIds,
    media: body.media === undefined ? undefined : normalizeMedia(body.media ?? undefined),
    accountOptions: body.accountOptions,
    overrides: body.overrides === undefined ? undefined : normalizeOverrides(body.overrides),
    thread: body.thread === undefined ? undefined : normalizeThread(body.thread),
    scheduledAt:
      body.scheduledAt === undefined
        ? undefined
        : body.scheduledAt === null
          ? null
          : parseScheduledAt(body.scheduledAt),
  };
}

export const unknownResolutions = ['mark_posted', 'post_again'] as const;
export type UnknownResolution = (typeof unknownResolutions)[number];

export type PostAction =
  | { postingMode: PostingMode; scheduledAt?: Date | undefined }
  /** A person's answer to targets whose outcome is `unknown`. */
  | { resolveUnknown: UnknownResolution; accountIds?: string[] | undefined };

export const PostActionRequest = z
  .object({
    postingMode: z
      .string()
      .meta({ enum: [...postingModes], description: 'Required unless `resolveUnknown` is given.' })
      .optional(),
    scheduledAt: z.string().optional(),
    resolveUnknown: z.enum(unknownResolutions).optional().meta({
      description:
        'Resolves targets whose result is `unknown` (a send interrupted on a platform that can neither dedupe nor be checked): `mark_posted` records them as posted (you checked the account); `post_again` sends them again now, and the answer is the finished post. Only `unknown` targets change; `postingMode` is then not needed.',
    }),
    accountIds: z
      .array(AccountId)
      .max(100)
      .optional()
      .meta({ description: 'With `resolveUnknown`: only these targets (default: every `unknown` one).' }),
  })
  .meta({ id: 'PostActionRequest' });

export function toPostAction(body: z.infer<typeof PostActionRequest>): PostAction {
  if (body.resolveUnknown) return { resolveUnknown: body.resolveUnknown, accountIds: body.accountIds };
  // A missing field is the wrong shape (400, as POST /api/v1/posts answers); only a given but
  // unknown mode is a value not allowed (422).
  if (body.postingMode === undefined) {
    throw new ProblemError(
      problem('invalid_request', 'postingMode is required unless resolveUnknown is given', {
        errors: [
          {
            path: 'postingMode',
            code: 'invalid_type',
            message: `Required unless resolveUnknown is given; one of ${postingModes.join(', ')}`,
          },
        ],
      }),
    );
  }
  const mode = PostingMode.safeParse(body.postingMode);
  if (!mode.success) {
    throw new ProblemError(
      problem('validation_failed', `Unknown postingMode "${body.postingMode}"`, {
        errors: [
          {
            path: 'postingMode',
            code: 'invalid_posting_mode',
            message: `Must be one of ${postingModes.join(', ')}`,
          },
        ],
      }),
    );
  }
  return {
    postingMode: mode.data,
    scheduledAt: body.scheduledAt ? parseScheduledAt(body.scheduledAt) : undefined,
  };
}
