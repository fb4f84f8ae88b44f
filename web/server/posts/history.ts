import type { AppContext } from '#server/context.ts';
import type { PostEventActor } from '#server/db/schema.ts';
import { insertPostEvent, selectPostEvents } from './history-repository.ts';

/** What an actor did to a post, in words the post page shows. */
export const postEventActions = {
  created_draft: 'saved it as a draft',
  published: 'published it',
  scheduled: 'scheduled it',
  updated: 'edited it',
  moved_to_draft: 'moved it back to drafts',
  approval_requested: 'saved it as a draft for your approval',
  confirmation_declined: 'asked you to confirm; you declined',
  confirmation_cancelled: 'asked you to confirm; you dismissed the request',
} as const;
export type PostEventAction = keyof typeof postEventActions;

export interface PostEventInput {
  postId: string;
  /** The member who acted (an assistant acts for the member who granted it). */
  userId: string;
  actor: PostEventActor;
  actorName: string | null;
  action: PostEventAction;
  detail?: Record<string, unknown>;
}

export interface PostEventView {
  id: string;
  actor: PostEventActor;
  actorName: string | null;
  action: string;
  description: string;
  detail: Record<string, unknown>;
  createdAt: string;
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

/** The post's history, oldest first (the caller has already checked the post is the user's). */
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
    description: postEventActions[row.action as PostEventAction] ?? row.action,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  }));
}
