import { formatCsv } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { readAll } from '#server/db/access.ts';
import type { KeysetPosition } from '#server/db/keyset.ts';
import { linksOfPosts } from '#server/links/repository.ts';
import type { PostView } from '#server/posts/schema.ts';
import { toPostView } from '#server/posts/view.ts';
import { stagingByPost } from '#server/staging/view.ts';
import { type ExportFilter, exportPage } from './repository.ts';
import { type ExportFormat, exportColumns } from './schema.ts';

/** Posts per database round trip: the export never holds more than one page. */
const pageSize = 200;

const postingModeOf = (post: PostView) => (post.status === 'scheduled' ? 'schedule' : 'draft');

/** Media as an override or thread part holds them in CSV JSON: the key (read back as is), URL and alt text. */
const mediaRefs = (media: PostView['media']) =>
  media.map((m) => ({ key: m.key, url: m.url, ...(m.altText ? { altText: m.altText } : {}) }));

const jsonOrEmpty = (value: unknown, empty: boolean) => (empty ? '' : JSON.stringify(value));

function csvRow(post: PostView): string[] {
  const options = jsonOrEmpty(post.accountOptions, Object.keys(post.accountOptions).length === 0);
  // Alt texts by position in `media`: a JSON array, written only when one medium has one.
  const altTexts = post.media.map((m) => m.altText ?? null);
  const overrides = Object.fromEntries(
    Object.entries(post.overrides).map(([id, o]) => [
      id,
      {
        ...(o.message !== undefined ? { message: o.message } : {}),
        ...(o.media ? { media: mediaRefs(o.media) } : {}),
      },
    ]),
  );
  const thread = post.thread.map((p) => ({
    message: p.message,
    ...(p.media.length ? { media: mediaRefs(p.media) } : {}),
  }));
  return [
    post.id,
    post.status,
    postingModeOf(post),
    post.scheduledAt ?? '',
    post.postedAt ?? '',
    post.createdAt,
    post.message,
    post.accountIds.join('|'),
    post.media.map((m) => m.url).join('|'),
    jsonOrEmpty(
      altTexts,
      altTexts.every((t) => t === null),
    ),
    options,
    jsonOrEmpty(overrides, Object.keys(overrides).length === 0),
    jsonOrEmpty(thread, thread.length === 0),
    jsonOrEmpty(post.recycle, !post.recycle),
    post.results.length ? JSON.stringify(post.results) : '',
  ];
}

/**
 * One page of posts as the Post resource shows them: with each target's tracked links (clicks,
 * warnings) and staging, read for the whole page at once, as `GET /api/v1/posts` reads them.
 */
async function viewsOfPage(
  ctx: AppContext,
  workspaceId: string,
  filter: ExportFilter,
  after?: KeysetPosition,
) {
  const rows = await exportPage(ctx, workspaceId, filter, pageSize, after);
  const ids = rows.map((r) => r.post.id);
  const [staging, links] = await readAll(ctx, [
    () => stagingByPost(ctx, ids),
    () => linksOfPosts(ctx, ids),
  ] as const);
  const linksByPost = Map.groupBy(links, (l) => l.postId);
  const views = rows.map((r) =>
    toPostView(r.post, r.targets, staging.get(r.post.id), linksByPost.get(r.post.id)),
  );
  return { rows, views };
}

/**
 * The user's posts (oldest first) as CSV or a JSON array, one keyset page at a time as the client
 * reads: the stream pulls the next page only when the previous one has been taken.
 */
export function exportPosts(
  ctx: AppContext,
  workspaceId: string,
  format: ExportFormat,
  filter: ExportFilter,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: KeysetPosition | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const { rows, views } = await viewsOfPage(ctx, workspaceId, filter, after);
      const last = rows.at(-1);
      if (last) after = { createdAt: last.post.createdAt, id: last.post.id };
      let chunk: string;
      if (format === 'csv') {
        // The SDK's one CSV writer: RFC 4180 quoting, formula cells neutralised; the header once.
        chunk = formatCsv(views.map(csvRow), started ? undefined : exportColumns);
      } else {
        chunk = views
          .map(
            (v, i) =>
              `${!started && i === 0 ? '' : ','}\n${JSON.stringify({ ...v, postingMode: postingModeOf(v) })}`,
          )
          .join('');
        if (!started) chunk = `[${chunk}`;
      }
      started = true;
      if (rows.length < pageSize) {
        done = true;
        if (format === 'json') chunk += '\n]\n';
      }
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
  });
}
