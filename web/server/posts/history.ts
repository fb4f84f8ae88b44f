import { withHint } from '@postwave/shared/error-hints';
import { manifestFor } from '@postwave/shared/platforms/manifests';
import type { AppContext } from '#server/context.ts';
import type { PostEventActor } from '#server/db/schema.ts';
import { insertPostEvent, insertRetriedCallEvent, selectPostEvents } from './history-repository.ts';
import { describeRecycle, recycleDetail } from './recycle-events.ts';
import type { TimelineEvent } from './timeline-schema.ts';

/** What an actor did to a post, in words the post page shows (the timeline's types, docs/dispatch.md#timeline). */
export const postEventActions = {
  created: 'created it',
  created_draft: 'saved it as a draft',
  published: 'published it',
  scheduled: 'scheduled it',
  updated: 'edited it',
  moved_to_draft: 'moved it back to drafts',
  approval_requested: 'saved it as a draft for your approval',
  submitted: 'submitted it for approval',
  approved: 'approved it',
  rejected: 'sent it back to drafts with a comment',
  confirmation_declined: 'asked you to confirm; you declined',
  confirmation_cancelled: 'asked you to confirm; you dismissed the request',
  attempt: 'sent it to the platform',
  posted: 'finished publishing: posted',
  failed: 'finished publishing: failed',
  unknown: 'could not tell whether the platform posted it (check the account, then mark it posted or failed)',
  resolved: 'settled an unknown outcome',
  comment_posted: 'posted its first comment',
  staged: 'uploaded its media to the platform ahead of time',
  stage_failed: 'could not upload its media ahead of time (it is uploaded at the due time)',
  preflight_failed: 'checked it before its time and found a problem',
  preflight_passed: 'checked it again before its time: the problem is gone',
  recycle_scheduled: 'scheduled a recycled copy',
  recycle_stopped: 'stopped recycling',
  deleted: 'deleted it',
} as const;
export type PostEventAction = keyof typeof postEventActions;

/** The actions an assistant records itself (the MCP actor); the others are written by the database. */
export type RecordedAction = Exclude<
  PostEventAction,
  | 'attempt'
  | 'posted'
  | 'failed'
  | 'unknown'
  | 'resolved'
  | 'comment_posted'
  | 'staged'
  | 'stage_failed'
  | 'created'
  | 'preflight_failed'
  | 'preflight_passed'
  | 'recycle_scheduled'
  | 'recycle_stopped'
  | 'deleted'
>;

export interface PostEventInput {
  postId: string;
  /** The member who acted (an assistant acts for the member who granted it); null for a client's review link. */
  userId: string | null;
  actor: PostEventActor;
  actorName: string | null;
  action: RecordedAction;
  detail?: Record<string, unknown>;
}

export interface PostEventView {
  id: string;
  actor: PostEventActor | null;
  actorName: string | null;
  action: string;
  description: string;
  detail: Record<string, unknown>;
  createdAt: string;
  event: TimelineEvent;
}

export async function recordPostEvent(ctx: AppContext, input: PostEventInput): Promise<void> {
  await insertPostEvent(ctx, {
    id: crypto.randomUUID(),
    postId: input.postId,
    userId: input.userId,
    actor: input.actor,
    actorName: input.actorName?.slice(0, 200) ?? null,
    action: input.action,
    detail: input.detail ?? {},
    createdAt: new Date(),
  });
}

/**
 * A call to the platform that failed retryably and was tried again within the same publish: an
 * `attempt` of its own on the timeline, numbered (the target's status does not change, so no
 * trigger sees it; the call after it has the next number).
 */
export async function recordRetriedCall(
  ctx: AppContext,
  call: {
    postId: string;
    userId: string | null;
    accountId: string;
    platform: string;
    part?: number;
    error: { code: string; message: string; retryable: boolean; platformStatus?: number };
  },
): Promise<void> {
  await insertRetriedCallEvent(ctx, {
    id: crypto.randomUUID(),
    postId: call.postId,
    userId: call.userId,
    actor: 'system',
    action: 'attempt',
    detail: { platform: call.platform, retriedAtOnce: true },
    accountId: call.accountId,
    ...(call.part === undefined ? {} : { part: call.part }),
    outcome: 'failed',
    error: call.error,
    createdAt: new Date(),
  });
}

type EventRow = Awaited<ReturnType<typeof selectPostEvents>>[number];

/** The post's timeline, oldest first (the caller has already checked the post is the user's). */
export async function listPostEvents(
  ctx: AppContext,
  workspaceId: string,
  postId: string,
): Promise<PostEventView[]> {
  const rows = await selectPostEvents(ctx, workspaceId, postId);
  return rows.map((row) => ({
    id: row.id,
    actor: row.actor,
    actorName: row.actorName,
    action: row.action,
    description: describe(row),
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
    event: timelineEvent(row),
  }));
}

function describe(row: EventRow): string {
  const base = postEventActions[row.action as PostEventAction] ?? row.action.replaceAll('_', ' ');
  if (row.action === 'recycle_scheduled' || row.action === 'recycle_stopped')
    return describeRecycle(row.detail);
  if (row.action !== 'attempt' && row.action !== 'resolved') return base;
  // The platform by the name its manifest gives it ("Telegram"), not its id.
  const where =
    typeof row.detail.platform === 'string'
      ? ` (${manifestFor(row.detail.platform)?.name ?? row.detail.platform})`
      : '';
  const part = row.part !== null && row.part > 0 ? `, thread part ${row.part + 1}` : '';
  return `${base}${where}${part}: ${row.outcome ?? 'unknown'}`;
}

/** One row as `GET /api/v1/posts/{id}/events` shows it (contract section F). */
function timelineEvent(row: EventRow): TimelineEvent {
  const stored: StoredError | null =
    row.error ?? (row.action === 'preflight_failed' ? riskError(row.detail) : null);
  const { platformStatus, ...error } = stored ?? { code: '', message: '', retryable: false };
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    type: row.action,
    ...(row.accountId ? { accountId: row.accountId } : {}),
    ...(row.part !== null ? { part: row.part } : {}),
    ...(row.attempt !== null ? { attempt: row.attempt } : {}),
    ...(row.actor ? { actor: { type: row.actor, name: row.actorName ?? defaultActorName[row.actor] } } : {}),
    ...(row.outcome ? { outcome: row.outcome as TimelineEvent['outcome'] & string } : {}),
    ...(row.action.startsWith('recycle_') ? { recycle: recycleDetail(row.detail) } : {}),
    ...(stored
      ? {
          error: {
            ...withHint({
              code: error.code,
              message: error.message,
              ...(error.hint ? { hint: error.hint } : {}),
            }),
            ...(platformStatus !== undefined ? { platformStatus } : {}),
          },
        }
      : {}),
  };
}

const defaultActorName: Record<PostEventActor, string> = {
  user: 'You',
  assistant: 'An assistant',
  api: 'An API client',
  system: 'Postwave',
  reviewer: 'A client',
};

type StoredError = {
  code: string;
  message: string;
  retryable: boolean;
  platformStatus?: number;
  hint?: string;
};

/** A pre-flight event keeps the risk it found in `detail`: shown as its error. */
function riskError(detail: Record<string, unknown>): StoredError {
  const text = (key: string) => (typeof detail[key] === 'string' ? (detail[key] as string) : undefined);
  return {
    code: text('code') ?? 'preflight_failed',
    message: text('message') ?? '',
    retryable: false,
    ...(text('hint') ? { hint: text('hint') } : {}),
  };
}
