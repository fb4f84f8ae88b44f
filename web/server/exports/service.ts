import { stringify } from 'csv-stringify/sync';
import type { AppContext } from '#server/context.ts';
import type { PostView } from '#server/posts/schema.ts';
import { toPostView } from '#server/posts/service.ts';
import { type ExportFilter, exportPage } from './repository.ts';
import { type ExportFormat, exportColumns } from './schema.ts';

/** Posts per database round trip: the export never holds more than one page. */
const pageSize = 200;

const postingModeOf = (post: PostView) => (post.status === 'scheduled' ? 'schedule' : 'draft');

function csvRow(post: PostView): string[] {
  const options = Object.keys(post.accountOptions).length ? JSON.stringify(post.accountOptions) : '';
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
    options,
    post.results.length ? JSON.stringify(post.results) : '',
  ];
}

/**
 * The user's posts (oldest first) as CSV or a JSON array, one keyset page at a time as the client
 * reads: the stream pulls the next page only when the previous one has been taken.
 */
export function exportPosts(
  ctx: AppContext,
  userId: string,
  format: ExportFormat,
  filter: ExportFilter,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { createdAt: Date; id: string } | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const rows = await exportPage(ctx, userId, filter, pageSize, after);
      const views = rows.map((r) => toPostView(r.post, r.targets));
      const last = rows.at(-1);
      if (last) after = { createdAt: last.post.createdAt, id: last.post.id };
      let chunk: string;
      if (format === 'csv') {
        // RFC 4180 quoting (commas, quotes, line breaks) by csv-stringify; the header once.
        chunk = stringify(views.map(csvRow), {
          header: !started,
          columns: [...exportColumns],
          record_delimiter: 'windows',
        });
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
