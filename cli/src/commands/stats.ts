import { accountNames } from '../account-names.ts';
import { type Context, type OptionSpecs, UsageError, unexpectedArgument } from '../command.ts';
import { preview, table } from '../format.ts';
import { AnalyticsSummary, PostMetrics } from '../responses.ts';

export const summary = 'what your posts did: metrics per post or per account';
export const synopsis = [
  ['stats', 'totals, accounts and top posts of the last 30 days (--from, --to)'],
  ['stats <post id>', "a post's metrics on each network"],
] as const;

export const help = `Usage: postwave stats [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]
       postwave stats <post id> [--json]

Without a post id: totals, each account and the top posts of a range of days in your
timezone (default the last 30). With a post id: that post's figures on each network, as
last collected (about 1 h, 6 h, 24 h, 3 d, 7 d and 30 d after posting), or why there are
none (not yet; not collected: the platform reports none, or the post was deleted there).
Accounts show by name (label, else handle). A table on a terminal; --json prints what the
Scheduler answered, ids and all. Scheduler only (see docs/analytics.md).
`;

export const options = {
  from: { type: 'string', summary: 'first day', value: { name: 'date' } },
  to: { type: 'string', summary: 'last day', value: { name: 'date' } },
} as const satisfies OptionSpecs;

const shown = ['impressions', 'views', 'likes', 'comments', 'reposts', 'shares'];
const cell = (value: number | null | undefined) =>
  value === undefined || value === null ? '-' : String(value);

/** When the figures were collected, else why there are none, in the words of `metricsState`. */
function collected(target: PostMetrics['targets'][number]): string {
  if (target.metricsState === 'unsupported') return 'not collected (platform reports none)';
  if (target.collectedAt) return target.collectedAt;
  if (target.metricsState === 'gone') return 'not collected (post deleted on the platform)';
  if (target.metricsState === 'done') return 'none collected';
  return 'not yet';
}

export async function run({ values, args, api, print }: Context<typeof options>): Promise<number> {
  const [postId, ...extra] = args;
  if (extra.length) throw unexpectedArgument('stats', extra[0]!);
  if (postId === '')
    throw new UsageError('The post id is empty: postwave stats <post id>, or postwave stats for the summary');
  // A post's figures cover its whole life: a range would be silently ignored (docs/cli.md).
  if (postId !== undefined && (values.from !== undefined || values.to !== undefined))
    throw new UsageError('--from and --to choose the days of the summary; a post’s figures take neither');
  for (const flag of ['from', 'to'] as const) {
    const day = values[flag];
    if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day))
      throw new UsageError(`--${flag} takes a day: YYYY-MM-DD, e.g. 2026-11-30`);
  }
  const client = api();
  // Names only for the table: --json prints the Scheduler's answer as it is.
  const names = values.json ? (id: string) => id : accountNames(client);
  if (postId) {
    const [metrics, name] = await Promise.all([
      client.request('GET', `/api/v1/posts/${encodeURIComponent(postId)}/metrics`, PostMetrics),
      names,
    ]);
    const text = metrics.targets.length
      ? table(
          ['ACCOUNT', 'PLATFORM', 'STATE', ...shown.map((m) => m.toUpperCase()), 'ENGAGEMENT', 'COLLECTED'],
          metrics.targets.map((t) => [
            name(t.accountId),
            t.platform,
            t.metricsState,
            ...shown.map((m) => cell(t.metrics[m])),
            cell(t.engagement),
            collected(t),
          ]),
        )
      : 'This post has not been published anywhere yet.\n';
    print(metrics, text);
    return 0;
  }
  const query = new URLSearchParams();
  if (values.from) query.set('from', values.from);
  if (values.to) query.set('to', values.to);
  const [summary, name] = await Promise.all([
    client.request('GET', `/api/v1/analytics${query.size ? `?${query}` : ''}`, AnalyticsSummary),
    names,
  ]);
  const { totals } = summary;
  const lines = [
    `${summary.from} to ${summary.to} (${summary.timezone}): ${totals.posts} post(s), engagement ${totals.engagement ?? 'not reported'}\n\n`,
    summary.perAccount.length
      ? table(
          ['ACCOUNT', 'PLATFORM', 'POSTS', 'ENGAGEMENT', ...shown.map((m) => m.toUpperCase())],
          summary.perAccount.map((a) => [
            name(a.accountId),
            a.platform,
            String(a.posts),
            cell(a.engagement),
            ...shown.map((m) => cell(a.metrics[m])),
          ]),
        )
      : 'No posts in this range.\n',
    summary.topPosts.length
      ? `\nTop posts\n${table(
          ['POST', 'ACCOUNT', 'PLATFORM', 'ENGAGEMENT', 'TEXT'],
          summary.topPosts.map((p) => [
            p.postId,
            name(p.accountId),
            p.platform,
            String(p.engagement),
            preview(p.message, 50),
          ]),
        )}`
      : '',
  ];
  print(summary, lines.join(''));
  return 0;
}
