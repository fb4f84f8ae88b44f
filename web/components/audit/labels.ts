import { platformName } from '#components/lib/platforms.ts';

/** Words for the audit log's actions and actors (the audit page, docs/workspaces.md#audit-log). */
export const actionLabels: Record<string, string> = {
  'post.created': 'Post created',
  'post.updated': 'Post edited',
  'post.submitted': 'Post submitted for approval',
  'post.approved': 'Post approved',
  'post.rejected': 'Post sent back',
  'post.published': 'Post published',
  'post.deleted': 'Post deleted',
  'account.connected': 'Account connected',
  'account.disconnected': 'Account disconnected',
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'token.created': 'Token created',
  'token.revoked': 'Token revoked',
  'webhook.created': 'Webhook created',
  'webhook.deleted': 'Webhook deleted',
};

export const actorTypeLabels: Record<string, string> = {
  member: '',
  reviewer: 'reviewer',
  assistant: 'assistant',
  system: '',
};

/** A short line of what helps a reader, from an entry's details (never more than they hold). */
export function describeDetails(details: Record<string, unknown> | undefined): string {
  if (!details) return '';
  const d = details;
  const parts: string[] = [];
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  if (text(d.from) && text(d.to)) parts.push(`${d.from} → ${d.to}`);
  else if (text(d.role)) parts.push(String(d.role));
  for (const key of ['name', 'email', 'label', 'username', 'platform', 'host', 'change', 'status']) {
    const value = text(d[key]);
    // A platform by the name its manifest gives it, not its id.
    if (value && !(key === 'name' && d.email)) parts.push(key === 'platform' ? platformName(value) : value);
  }
  if (Array.isArray(d.fields) && d.fields.length > 0) parts.push(`changed ${d.fields.join(', ')}`);
  if (Array.isArray(d.events)) parts.push(d.events.join(', '));
  if (d.reconnected === true) parts.push('reconnected');
  if (d.left === true) parts.push('left');
  return parts.join(' · ');
}
