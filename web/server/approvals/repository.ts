import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '#server/db/access.ts';
import { posts, users, workspaceMembers } from '#server/db/schema.ts';
import type { NewPostRow, PostRow } from '#server/posts/repository.ts';

/** The only SQL of approvals (docs/workspaces.md#approvals). */

/**
 * Decides a submission: changes the post only while it is still `pending_approval` and unchanged
 * since the decider read it. Of two approvers at once exactly one gets the row back; the other
 * gets undefined (and publishes nothing).
 */
export async function decidePending(
  ctx: Db,
  row: PostRow,
  set: Partial<NewPostRow>,
): Promise<PostRow | undefined> {
  const [updated] = await ctx.db
    .update(posts)
    .set({ ...set, updatedAt: new Date() })
    .where(
      and(eq(posts.id, row.id), eq(posts.status, 'pending_approval'), eq(posts.updatedAt, row.updatedAt)),
    )
    .returning();
  return updated;
}

/** Who is told of a new submission: the workspace's owners, admins and editors, except its author. */
export async function approverEmails(
  ctx: Db,
  workspaceId: string,
  exceptUserId: string | null,
): Promise<string[]> {
  const rows = await ctx.db
    .select({ email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        inArray(workspaceMembers.role, ['owner', 'admin', 'editor']),
        exceptUserId ? ne(workspaceMembers.userId, exceptUserId) : undefined,
      ),
    )
    .orderBy(asc(workspaceMembers.createdAt));
  return rows.map((r) => r.email);
}

/** A member's address and name (the author told of a decision). */
export async function userContact(
  ctx: Db,
  userId: string,
): Promise<{ email: string; name: string | null } | undefined> {
  const [row] = await ctx.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
