/**
 * Every action the audit log records (contract section G; docs/workspaces.md#audit-log). The
 * `post.submitted`, `post.approved` and `post.rejected` entries are written by the approvals code.
 */
export const auditActions = [
  'post.created',
  'post.updated',
  'post.submitted',
  'post.approved',
  'post.rejected',
  'post.published',
  'post.deleted',
  'account.connected',
  'account.disconnected',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'token.created',
  'token.revoked',
  'webhook.created',
  'webhook.deleted',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What an entry is about. */
export const auditTargetTypes = ['post', 'account', 'member', 'invitation', 'token', 'webhook'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];
