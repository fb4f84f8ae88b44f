import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { unauthorized } from '#server/api/common.ts';
import { postStatuses } from '#server/db/schema.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { ExportedPost, exportColumns, exportFormats } from './schema.ts';

export const exportRoutes = defineApiRoutes({
  exportPosts: {
    method: 'get',
    path: '/api/v1/posts/export',
    auth: 'caller',
    permission: 'read',
    operationId: 'exportPosts',
    summary: 'Export posts with their results as CSV or JSON (streamed)',
    description: [
      'Streams every matching post, oldest first (by creation), read from the database a page at a time. A post’s time for `from`/`to` is when it posted, else when it is scheduled, else when it was created; `from` is inclusive, `to` exclusive; each is a date (`2026-12-01`, midnight UTC) or an ISO 8601 date-time with an offset.',
      `CSV columns: ${exportColumns.map((c) => `\`${c}\``).join(', ')} (RFC 4180: every field holding a comma, a double quote, a carriage return or a line feed is quoted; CRLF line ends). A cell a spreadsheet would run as a formula (starting with \`=\`, \`+\`, \`-\`, \`@\`, tab or carriage return, OWASP) is written with a leading \`'\`, as is a cell starting with quotes followed by one of those; the importer removes that one quote again. \`accounts\` and \`media\` are \`|\`-separated account ids and media URLs; \`altText\` is a JSON array of the media’s alt texts by position (empty when none has one); \`accountOptions\` (with \`firstComment\`), \`overrides\`, \`thread\` (media as \`{ key, url, altText? }\`), \`recycle\` (empty when the post has none) and \`results\` (with each thread’s \`parts\`) are JSON. JSON: an array of posts, each with \`postingMode\`.`,
      'Both read back through `POST /api/v1/posts/import`: scheduled posts come back scheduled (while their time is in the future), everything else as drafts; media URLs of this server resolve to the same stored media; overrides, thread, first comments, alt text and recycling come back as they were.',
    ].join('\n\n'),
    parameters: [
      {
        name: 'format',
        in: 'query',
        description: '`csv` (default) or `json`.',
        schema: z.enum(exportFormats),
      },
      { name: 'status', in: 'query', schema: z.enum(postStatuses) },
      {
        name: 'from',
        in: 'query',
        description: 'Inclusive lower bound of the post’s time.',
        schema: z.string(),
      },
      {
        name: 'to',
        in: 'query',
        description: 'Exclusive upper bound of the post’s time.',
        schema: z.string(),
      },
    ],
    responses: {
      200: {
        description: 'The posts, as an attachment.',
        content: {
          'text/csv': z.string().meta({ description: 'CSV with a header row.' }),
          'application/json': z.array(ExportedPost),
        },
      },
      ...problemResponses({ ...unauthorized, invalid_request: 'bad format, status, from or to' }),
    },
  },
});
