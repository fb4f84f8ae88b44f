import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { templateColumns } from './template-columns.ts';

export const importTemplateRoutes = defineApiRoutes({
  importTemplate: {
    method: 'get',
    path: '/api/v1/posts/import/template',
    auth: 'caller',
    // Any member may read the workspace's accounts; importing the filled template needs posts.publish.
    permission: 'read',
    operationId: 'importTemplate',
    summary: 'A CSV template to start an import from',
    description: `A CSV (as an attachment) with the columns ${templateColumns.map((c) => `\`${c}\``).join(', ')} and example rows that import as they are for the caller: their own accounts by handle (\`<platform>:<handle>\` where two platforms share one), times tomorrow in their time zone with the offset written out, a thread and a draft. With no account connected yet, the rows name \`@your-handle\`, to be replaced.`,
    responses: {
      200: {
        description: 'The template, as an attachment.',
        content: { 'text/csv': z.string().meta({ description: 'CSV with a header row.' }) },
      },
      ...problemResponses({ ...unauthorized }),
    },
  },
});
