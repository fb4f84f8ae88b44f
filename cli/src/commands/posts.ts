import { type Context, type OptionSpecs, siblingOption, UsageError, unexpectedArgument } from '../command.ts';
import { preview, table } from '../format.ts';
import { checkStatus, describePost, postStatuses } from '../post-view.ts';
import { NoContent, PostPage, PostView } from '../responses.ts';

export const summary = 'list, show or delete posts';
export const synopsis = [
  ['posts list', 'list posts (newest first)'],
  ['posts show <id>', 'show one post with its per-account results'],
  ['posts delete <id>', 'delete a draft, scheduled or failed post'],
] as const;

export const help = `Usage: postwave posts <list|show|delete>
  postwave posts list [--status <status>] [--limit n] [--cursor c] [--json]
  postwave posts show <id> [--json]
  postwave posts delete <id> [--json]

  --status <status>  draft, scheduled, posted, failed or pending_approval
  --limit <n>        posts per page (1-200, default 50)
  --cursor <c>       the next page, as the previous one printed
`;

export const options = {
  status: {
    type: 'string',
    summary: 'filter by status',
    value: { name: 'status', complete: postStatuses },
  },
  limit: { type: 'string', summary: 'page size', value: { name: 'n' } },
  cursor: { type: 'string', summary: 'next page', value: { name: 'cursor' } },
} as const satisfies OptionSpecs;

export const positional = { kind: 'subcommand', words: ['list', 'show', 'delete'] } as const;

export async function run({ values, args, api, print }: Context<typeof options>): Promise<number> {
  const [sub = 'list', id, ...extra] = args;
  if (!(positional.words as readonly string[]).includes(sub))
    throw new UsageError(`Unknown posts command "${sub}".\n${help}`);
  if (extra.length) throw unexpectedArgument('posts', extra[0]!);
  if (sub === 'list' && id !== undefined) throw unexpectedArgument('posts', id);
  if (sub !== 'list' && !id) throw new UsageError(`Usage: postwave posts ${sub} <id>`);
  const listOnly = (['status', 'limit', 'cursor'] as const).find((o) => values[o] !== undefined);
  if (sub !== 'list' && listOnly) throw siblingOption('posts', sub, listOnly, 'list');
  checkStatus(values.status);
  if (values.limit !== undefined && !/^\d+$/.test(values.limit))
    throw new UsageError('--limit takes a whole number (1-200)');
  const client = api();
  if (sub === 'show') {
    const post = await client.request('GET', `/api/v1/posts/${encodeURIComponent(id!)}`, PostView);
    print(post, describePost(post));
    return 0;
  }
  if (sub === 'delete') {
    await client.request('DELETE', `/api/v1/posts/${encodeURIComponent(id!)}`, NoContent);
    print({ deleted: id }, `Deleted post ${id}.\n`);
    return 0;
  }
  const query = new URLSearchParams();
  if (values.status) query.set('status', values.status);
  if (values.limit) query.set('limit', values.limit);
  if (values.cursor) query.set('cursor', values.cursor);
  const page = await client.request('GET', `/api/v1/posts${query.size ? `?${query}` : ''}`, PostPage);
  const text = page.posts.length
    ? table(
        ['ID', 'STATUS', 'WHEN', 'MESSAGE'],
        page.posts.map((p) => [
          p.id,
          p.status,
          p.postedAt ?? p.scheduledAt ?? p.createdAt,
          preview(p.message),
        ]),
      ) + (page.nextCursor ? `More: postwave posts list --cursor ${page.nextCursor}\n` : '')
    : 'No posts.\n';
  print(page, text);
  return 0;
}
