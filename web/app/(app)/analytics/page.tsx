import { postMetricNames } from '@postwave/shared/analytics/metrics';
import type { Metadata } from 'next';
import Link from 'next/link';
import { BestTimesHeatmap } from '#components/analytics/best-times-heatmap.tsx';
import { DailyChart } from '#components/analytics/daily-chart.tsx';
import { formatCount, metricLabels, rangeProblem, weekdayNames } from '#components/analytics/labels.ts';
import { EmptyState } from '#components/empty-state.tsx';
import { accountName, platformName } from '#components/lib/platforms.ts';
import { ScrollRegion } from '#components/scroll-region.tsx';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import { getBestTimes } from '#server/analytics/get-best-times.ts';
import { getAnalyticsSummary } from '#server/analytics/get-summary.ts';
import { getContext } from '#server/context.ts';
import { requireUser } from '#server/ui/session.ts';
import '#components/analytics/analytics.css';

export const metadata: Metadata = { title: 'Analytics' };

type Search = { from?: string; to?: string; accountIds?: string | string[]; best?: string };

/** What posts did, per day and per account, and when to post (docs/analytics.md). */
export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const ctx = await getContext();
  const search = await searchParams;
  const accounts = await listAccounts(ctx, user.workspaceId);
  // Only this workspace's accounts: an id left in the address after its account was removed (or
  // switched away from) would otherwise make the whole page a 404.
  const chosen = [search.accountIds ?? []].flat().filter((id) => accounts.some((a) => a.id === id));
  const query = new URLSearchParams();
  if (search.from) query.set('from', search.from);
  if (search.to) query.set('to', search.to);
  if (chosen.length) query.set('accountIds', chosen.join(','));
  let summary: Awaited<ReturnType<typeof getAnalyticsSummary>> | undefined;
  let problem: string | undefined;
  try {
    summary = await getAnalyticsSummary(ctx, user.workspaceId, query);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    // The range refusals name the API's parameters: the page says them in the form's words.
    problem = /\bfrom\b|\bto\b|range/.test(message) ? rangeProblem(search.from, search.to) : message;
  }
  const names = new Map(accounts.map((a) => [a.id, accountName(a)]));
  const bestAccount =
    accounts.find((a) => a.id === search.best) ?? accounts.find((a) => chosen.includes(a.id)) ?? accounts[0];
  const best = bestAccount ? await getBestTimes(ctx, user.workspaceId, bestAccount.id) : undefined;
  const reported = summary ? postMetricNames.filter((m) => summary.totals.metrics[m] !== undefined) : [];

  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Analytics</h1>
          <p>What your posts did on each network, and when your audience answers most.</p>
        </div>
        {summary && (
          <a
            className="btn"
            href={`/api/v1/analytics/export?format=csv&from=${summary.from}&to=${summary.to}`}
            download
          >
            Export CSV
          </a>
        )}
      </div>
      {accounts.length === 0 ? (
        <EmptyState
          icon="list"
          title="No accounts yet"
          action={
            <Link href="/accounts" className="btn btn-primary">
              Connect an account
            </Link>
          }
        >
          Connect an account and publish: its figures appear here.
        </EmptyState>
      ) : (
        <>
          <form className="card card-body analytics-filters" method="get" aria-label="Range and accounts">
            <div className="field">
              <label htmlFor="from">From</label>
              <input
                id="from"
                name="from"
                type="date"
                className="input"
                defaultValue={summary?.from ?? search.from}
              />
            </div>
            <div className="field">
              <label htmlFor="to">To</label>
              <input
                id="to"
                name="to"
                type="date"
                className="input"
                defaultValue={summary?.to ?? search.to}
              />
            </div>
            <fieldset>
              <legend className="small">Accounts (none checked: all)</legend>
              {accounts.map((a) => (
                <label key={a.id} className="small">
                  <input
                    type="checkbox"
                    name="accountIds"
                    value={a.id}
                    defaultChecked={chosen.includes(a.id)}
                  />{' '}
                  {accountName(a)} ({platformName(a.platform)})
                </label>
              ))}
            </fieldset>
            <button type="submit" className="btn btn-primary">
              Show
            </button>
          </form>
          {problem && (
            <p className="alert alert-error" role="alert">
              {problem}
            </p>
          )}
          {summary && (
            <>
              <section className="card card-body stack" aria-labelledby="totals-title">
                <h2 id="totals-title">
                  {summary.from} to {summary.to}
                </h2>
                <dl className="totals" data-testid="totals">
                  <div>
                    <dt>Posts</dt>
                    <dd>{formatCount(summary.totals.posts)}</dd>
                  </div>
                  <div>
                    <dt>Engagement</dt>
                    <dd>{formatCount(summary.totals.engagement)}</dd>
                  </div>
                  {reported.map((m) => (
                    <div key={m}>
                      <dt>{metricLabels[m]}</dt>
                      <dd>{formatCount(summary.totals.metrics[m])}</dd>
                    </div>
                  ))}
                </dl>
                <DailyChart
                  title="Posts and engagement per day"
                  days={summary.perDay.map((d) => ({
                    date: d.date,
                    posts: d.posts,
                    engagement: d.engagement,
                  }))}
                />
              </section>
              <section className="card" aria-labelledby="accounts-title">
                <div className="card-head">
                  <h2 id="accounts-title">Per account</h2>
                </div>
                <ScrollRegion className="card-body" label="Figures per account">
                  {summary.perAccount.length === 0 ? (
                    <p className="muted">Nothing was posted in this range.</p>
                  ) : (
                    <table className="table metrics-table" data-testid="per-account">
                      <thead>
                        <tr>
                          <th scope="col">Account</th>
                          <th scope="col">Posts</th>
                          <th scope="col">Engagement</th>
                          {reported.map((m) => (
                            <th key={m} scope="col">
                              {metricLabels[m]}
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {summary.perAccount.map((row) => (
                          <tr key={row.accountId}>
                            <th scope="row">
                              {names.get(row.accountId) ?? 'Disconnected account'}{' '}
                              <span className="muted small">{platformName(row.platform)}</span>
                            </th>
                            <td>{formatCount(row.posts)}</td>
                            <td>{formatCount(row.engagement)}</td>
                            {reported.map((m) => (
                              <td key={m}>{formatCount(row.metrics[m])}</td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </ScrollRegion>
              </section>
              <section className="card" aria-labelledby="top-title">
                <div className="card-head">
                  <h2 id="top-title">Top posts</h2>
                </div>
                {summary.topPosts.length === 0 ? (
                  <p className="card-body muted">No figures collected yet in this range.</p>
                ) : (
                  <ol className="list" data-testid="top-posts">
                    {summary.topPosts.map((p) => (
                      <li key={`${p.postId}/${p.accountId}`} className="result">
                        <div className="meta">
                          <Link href={`/posts/${p.postId}`}>{p.message.trim() || 'Media post'}</Link>
                          <p className="muted small">
                            {names.get(p.accountId) ?? 'Disconnected account'} · {platformName(p.platform)} ·
                            engagement {formatCount(p.engagement)}
                          </p>
                        </div>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            </>
          )}
          {bestAccount && best && (
            <section className="card" aria-labelledby="best-title">
              <div className="card-head">
                <h2 id="best-title">Best times for {accountName(bestAccount)}</h2>
              </div>
              <div className="card-body stack">
                <form method="get" className="row" aria-label="Best times account">
                  <label htmlFor="best" className="small">
                    Account
                  </label>
                  <select id="best" name="best" className="select" defaultValue={bestAccount.id}>
                    {accounts.map((a) => (
                      <option key={a.id} value={a.id}>
                        {accountName(a)} ({platformName(a.platform)})
                      </option>
                    ))}
                  </select>
                  <button type="submit" className="btn btn-sm">
                    Show
                  </button>
                </form>
                {best.reason === 'insufficient_data' ? (
                  <p className="muted" data-testid="best-times-empty">
                    Not enough history yet: {best.sampleSize} posted with figures, 20 needed.
                  </p>
                ) : (
                  <>
                    <p className="small">
                      Best:{' '}
                      {best.slots
                        .slice(0, 3)
                        .map((s) => `${weekdayNames[s.weekday - 1]} ${String(s.hour).padStart(2, '0')}:00`)
                        .join(', ')}{' '}
                      ({best.timezone}, median engagement per post of {best.sampleSize} posts).
                    </p>
                    <BestTimesHeatmap slots={best.slots} accountName={accountName(bestAccount)} />
                  </>
                )}
              </div>
            </section>
          )}
        </>
      )}
    </div>
  );
}
