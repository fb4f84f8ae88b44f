import { ProblemError, problem } from '@postwave/shared';
import { type WorkspaceRole, workspaceRoles } from '#server/db/schema.ts';

/**
 * What a workspace role may do: the contract's role table (section G), checked in one place per
 * request by the route registry's auth step (docs/workspaces.md#roles). `self` is a signed-in
 * person acting on their own user (sign-in methods, their workspaces list, accepting an
 * invitation): no workspace role is needed.
 *
 * Rows of the table and their permission:
 * - read posts, accounts, analytics, timeline → `read`
 * - create and edit drafts, comment → `posts.draft` (contributors: their own posts only)
 * - publish now, schedule, queue, delete posts → `posts.publish` (contributors submit only)
 * - approve or reject → `posts.approve` (editors: not their own posts)
 * - accounts, queues, feeds, webhooks, templates, settings → `workspace.manage`
 * - members and invitations → `members.manage` (admins: not owners)
 * - delete the workspace → `workspace.delete`
 */
export const permissions = [
  'self',
  'read',
  'posts.draft',
  'posts.publish',
  'posts.approve',
  'workspace.manage',
  'members.manage',
  'workspace.delete',
] as const;
export type Permission = (typeof permissions)[number];

export { type WorkspaceRole, workspaceRoles };

/** The least role allowed each permission; roles are ordered owner > admin > editor > contributor > viewer. */
const leastRole: Record<Exclude<Permission, 'self'>, WorkspaceRole> = {
  read: 'viewer',
  // Contributors draft and submit their own posts; the "own posts" limit is checked on the post.
  'posts.draft': 'contributor',
  // Contributors may only submit for approval (docs/workspaces.md#approvals): until a request is
  // turned into a submission, publishing, scheduling and queueing need an editor.
  'posts.publish': 'editor',
  'posts.approve': 'editor',
  'workspace.manage': 'admin',
  'members.manage': 'admin',
  'workspace.delete': 'owner',
};

const rank = (role: WorkspaceRole) => workspaceRoles.length - workspaceRoles.indexOf(role);

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === 'string' && (workspaceRoles as readonly string[]).includes(value);
}

/** The least role that holds `permission` (`viewer` for `self`, which needs none). */
export function requiredRole(permission: Permission): WorkspaceRole {
  return permission === 'self' ? 'viewer' : leastRole[permission];
}

/** Whether `role` may do what `permission` names. */
export function can(role: WorkspaceRole, permission: Permission): boolean {
  return rank(role) >= rank(requiredRole(permission));
}

/** Whether `role` is at least `other` (an admin manages editors, not owners). */
export function atLeast(role: WorkspaceRole, other: WorkspaceRole): boolean {
  return rank(role) >= rank(other);
}

/** 403 `forbidden` naming the least role that would do (`requiredRole`). */
export function forbiddenFor(permissionOrRole: Permission | WorkspaceRole, detail?: string): ProblemError {
  const role = isWorkspaceRole(permissionOrRole) ? permissionOrRole : requiredRole(permissionOrRole);
  return new ProblemError(
    problem('forbidden', detail ?? `This needs the ${role} role or higher in this workspace`, {
      requiredRole: role,
    }),
  );
}

/** Throws 403 `forbidden` unless `role` holds `permission`. */
export function assertCan(role: WorkspaceRole, permission: Permission): void {
  if (!can(role, permission)) throw forbiddenFor(permission);
}
