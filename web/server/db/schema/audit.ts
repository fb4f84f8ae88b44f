import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { workspaceRef } from './users.ts';

export const auditActorTypes = ['member', 'reviewer', 'assistant', 'system'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/**
 * The workspace's audit log (docs/workspaces.md#audit-log): one row per change, written in the
 * same transaction as the change (server/audit/record-audit.ts). `actor_name` is kept as it was at
 * the time, so an entry still reads right after the member left; `details` never holds a secret.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey(),
    workspaceId: workspaceRef(),
    at: ts('at').notNull(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  // Newest first per workspace, keyset on (at, id): one backward index range scan per page.
  (t) => [index('audit_entries_workspace_at').on(t.workspaceId, t.at.desc(), t.id.desc())],
);
