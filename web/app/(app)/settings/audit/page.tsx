import { ProblemError } from '@postwave/shared';
import type { Metadata } from 'next';
import Link from 'next/link';
import { actionLabels, actorTypeLabels, describeDetails } from '#components/audit/labels.ts';
import { Icon } from '#components/icons.tsx';
import { formatDateTime } from '#components/lib/time.ts';
import { auditActions } from '#server/audit/actions.ts';
import { listAudit } from '#server/audit/list-audit.ts';
import { parseAuditQuery } from '#server/audit/schema.ts';
import { can } from '#server/auth/permissions.ts';
import { getContext } from '#server/context.ts';
import { requestLocale } from '#server/ui/locale.ts';
import { requireUser } from '#server/ui/session.ts';
import { membersOf } from '#server/workspaces/repository.ts';

export const metadata: Metadata = { title: 'Audit log' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const filterNames = ['action', 'actorId', 'from', 'to'] as const;

/** Where an entry's target can be opened in the app (posts); other targets are named only. */
const targetHref = (type: string, id: string) => (type === 'post' ? `/posts/${id}` : undefined);

/**
 * The workspace's audit log for owners and admins (docs/workspaces.md#audit-log): newest first, a
 * page at a time, filtered by action, member and dates with a plain GET form (works without
 * JavaScript and by keyboard); the table scrolls inside its region on a phone.
 */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const raw = await searchParams;
  const params = new URLSearchParams();
  for (const name of [...filterNames, 'cursor'] as const) {
    const value = raw[name];
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
  const head = (
    <div className="page-head">
      <div>
        <p className="small">
          <Link href="/settings#workspace" className="icon-link">
            <Icon name="arrowLeft" size={16} />
            Settings
          </Link>
        </p>
        <h1>Audit log</h1>
        <p>Who changed what in {user.workspaceName}, newest first.</p>
      </div>
    </div>
  );
  if (!can(user.role, 'workspace.manage')) {
    return (
      <div className="page page-narrow">
        {head}
        <p className="alert alert-warn" role="status">
          Only owners and admins of this workspace can read its audit log.
        </p>
      </div>
    );
  }
  const ctx = await getContext();
  const locale = await requestLocale();
  const members = await membersOf(ctx, user.workspaceId);
  let problem: string | undefined;
  let page: Awaited<ReturnType<typeof listAudit>> = { entries: [], nextCursor: null };
  try {
    page = await listAudit(ctx, user.workspaceId, { ...parseAuditQuery(params), limit: 50 });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    problem = error.problem.detail;
  }
  const value = (name: string) => params.get(name) ?? '';
  const older = new URLSearchParams(params);
  if (page.nextCursor) older.set('cursor', page.nextCursor);
  const filtered = filterNames.some((name) => params.has(name));

  return (
    <div className="page">
      {head}
      <section className="card" aria-labelledby="audit-filter-title">
        <div className="card-head">
          <h2 id="audit-filter-title">Filter</h2>
        </div>
        <form method="get" action="/settings/audit" className="card-body audit-filters">
          <div className="field">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" name="action" className="input" defaultValue={value('action')}>
              <option value="">All actions</option>
              {auditActions.map((action) => (
                <option key={action} value={action}>
                  {actionLabels[action] ?? action}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-member">Member</label>
            <select id="audit-member" name="actorId" className="input" defaultValue={value('actorId')}>
              <option value="">Everyone</option>
              {members.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name ?? m.email}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-from">From (UTC day)</label>
            <input id="audit-from" name="from" type="date" className="input" defaultValue={value('from')} />
          </div>
          <div className="field">
            <label htmlFor="audit-to">To (UTC day, included)</label>
            <input id="audit-to" name="to" type="date" className="input" defaultValue={value('to')} />
          </div>
          <div className="row audit-filter-actions">
            <button type="submit" className="btn btn-primary">
              Apply
            </button>
            {filtered && (
              <Link href="/settings/audit" className="btn">
                Clear filters
              </Link>
            )}
          </div>
        </form>
      </section>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      <section className="card" aria-labelledby="audit-entries-title">
        <div className="card-head">
          <h2 id="audit-entries-title">Entries</h2>
        </div>
        {page.entries.length === 0 ? (
          <p className="card-body muted" data-testid="audit-empty">
            {filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}
          </p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard
          <section className="table-scroll" tabIndex={0} aria-label="Audit entries, scrollable">
            <table className="table" data-testid="audit-table">
              <caption className="sr-only">Audit entries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {page.entries.map((entry) => {
                  const href = targetHref(entry.target.type, entry.target.id);
                  const kind = actorTypeLabels[entry.actor.type];
                  return (
                    <tr key={entry.id} data-action={entry.action}>
                      <td className="nowrap">
                        <time dateTime={entry.at}>{formatDateTime(entry.at, user.timezone, locale)}</time>
                      </td>
                      <td>
                        {entry.actor.name}
                        {kind && <span className="muted"> ({kind})</span>}
                      </td>
                      <td>
                        {href ? (
                          <Link href={href}>{actionLabels[entry.action] ?? entry.action}</Link>
                        ) : (
                          (actionLabels[entry.action] ?? entry.action)
                        )}
                      </td>
                      <td className="small">{describeDetails(entry.details)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        )}
      </section>
      {page.nextCursor && (
        <p>
          <Link className="btn" href={`/settings/audit?${older.toString()}`} rel="next">
            Older entries
          </Link>
        </p>
      )}
    </div>
  );
}
