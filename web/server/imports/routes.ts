import { idempotencyProblems } from '@postwave/shared';
import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { schedulerIdempotencyKey } from '#server/idempotency/openapi.ts';
import { ImportJsonBody, ImportReport, maxImportBytes, maxImportRows } from './schema.ts';

export const importRoutes = defineApiRoutes({
  importPosts: {
    method: 'post',
    path: '/api/v1/posts/import',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'importPosts',
    summary: 'Import posts from CSV or JSON: dry run first, then commit all or nothing',
    description: [
      `Body: \`text/csv\` with a header row, or \`application/json\`: an array of post requests. At most ${maxImportRows} rows and ${maxImportBytes / 1024 / 1024} MiB (413 above).`,
      'CSV columns: `message` (required), `accounts` (account ids or handles such as `@news` or `telegram:@news`, separated by `|`, `,` or spaces), `scheduledAt` (ISO 8601 with offset), `postingMode` (`draft`, `schedule` or `queue`; default `schedule` when `scheduledAt` is set, else `draft`), `media` (URLs separated by `|` or spaces), `altText` (a JSON array of alt texts by position in `media`, or plain text for a row with one medium) and `altText.<n>` columns (1-based), `accountOptions` (a JSON object keyed by account id, handle or platform; `firstComment` is one of these options), `options.<account id|handle|platform>.<option>` columns (one option each; the cell is read as JSON when it parses, else as text), `overrides` (a JSON object keyed by account id or handle: `{ message?, media? }`), and the thread as `thread` (a JSON array of `{ message, media? }`) or as `thread.<n>` text columns (1-based; not both), and `recycle` (a JSON object as `POST /api/v1/posts` takes it: `{ intervalDays, maxTimes, until?, jitterMinutes? }`, checked the same way, errors at `recycle.<field>`). Media in `overrides` and `thread` are URLs or `{ key | url, altText? }`. Other columns (an export’s `id`, `status`, `results`…) are ignored, so an export reads back.',
      'Every row is checked: unknown or ambiguous account, bad or past date, a row repeating an earlier one (`duplicate_row`), media (each URL fetched once through the SSRF-safe fetch into your media library, with the upload size limit and type sniffing; our own media URLs resolve to their key), and for scheduled and queued rows the same per-platform validation as `POST /api/v1/posts` (overrides, thread parts, first comments and alt text included). Drafts are only checked for their accounts, as when created one by one. A JSON row is a post request of `POST /api/v1/posts` with `overrides`, `thread`, `accountOptions[id].firstComment` and `altText` on media, `recycle`, and `templateId` (the row starts from that template as on `POST /api/v1/posts`; an unknown one is the row’s `template_not_found`) (accounts and override keys may be handles, media may be URLs). `queue` rows take the next free slot common to their accounts’ queues, chosen in the commit’s transaction under the queue lock, in file order (a dry run reports `queue_empty` / `no_free_slot`). Publishing now is not offered by an import.',
      'Approvals apply as to `POST /api/v1/posts` (docs/workspaces.md#approvals): for a contributor, and for everyone in a workspace whose `approvals` is `everyone`, committed `schedule` and `queue` rows are stored as `pending_approval` submissions (`approval.requested` says `schedule` with its time, or `queue`; a queued row takes its slot when approved), each with its `submitted` timeline event and `post.submitted` webhook; drafts stay drafts. Importing needs the contributor role (drafts and submissions); a viewer gets 403.',
      'A media host that fails (refuses, resets, closes before the announced length, trickles past 30 s) fails the row that names it (`fetch_failed`, `timeout`), never the import. The whole import has a time budget (`IMPORT_TIME_BUDGET_MS`, default 25 s) covering downloads and row checks: when it runs out, downloads in flight are abandoned, each media URL not fetched and each row not checked gets a `time_budget_exceeded` error, the answer is still 200 with `timeBudgetExceeded: true`, and nothing is committed; media already fetched are kept, so sending the file again continues where it stopped.',
      'The file must be UTF-8 (a BOM is allowed): a byte that is not is refused with 422 `invalid_utf8` naming the byte offset and the CSV row (JSON: the line); a JSON string holding a lone UTF-16 surrogate (`\\ud800`) is refused with 422 `lone_surrogate` and its path (`[row].field`). Nothing is replaced silently. CSV cells starting with a quote followed by `=`, `+`, `-`, `@`, tab or carriage return (an export’s neutralised formula cells) lose that one quote, so an export reads back exactly. Each user may import `IMPORT_RATE_LIMIT` times a minute (default 10, dry runs included); beyond, 429 with `Retry-After`.',
      '`dryRun=true` (the default) writes no post (fetched media are kept, so the commit does not download them again). `dryRun=false` commits only when every row is valid, in one transaction; otherwise `committed: false` and nothing is written. A commit is idempotent per file: the same bytes again answer the first commit’s report (`postId`s included) and create nothing. `Idempotency-Key` is honoured as on `POST /api/v1/posts`.',
    ].join('\n\n'),
    parameters: [
      {
        name: 'dryRun',
        in: 'query',
        description: '`true` (default): report only. `false`: commit when every row is valid.',
        schema: z.enum(['true', 'false']),
      },
      schedulerIdempotencyKey,
    ],
    requestBody: {
      content: {
        'text/csv': z.string().meta({ description: 'CSV with a header row.' }),
        [json]: ImportJsonBody,
      },
    },
    responses: {
      200: {
        description: 'A report per row, and whether the posts were created.',
        content: { [json]: ImportReport },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'malformed CSV or JSON, no rows, no `message` column, or a bad `dryRun`',
        payload_too_large: `over ${maxImportBytes / 1024 / 1024} MiB`,
        unsupported_media_type: 'neither text/csv nor application/json',
        validation_failed: `more than ${maxImportRows} rows (\`too_many_rows\`), a byte that is not UTF-8 (\`invalid_utf8\`), a lone surrogate in a JSON string (\`lone_surrogate\`)`,
        rate_limited:
          'more than `IMPORT_RATE_LIMIT` imports (dry runs included) by the user in a minute on this instance (default 10); `Retry-After` says when to try again',
        ...idempotencyProblems,
      }),
    },
  },
});
