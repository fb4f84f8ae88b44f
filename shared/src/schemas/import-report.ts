import { z } from 'zod';
import { ProblemIssue } from './problem.ts';

/**
 * The Scheduler's answer to POST /api/v1/posts/import, declared here because the web app and the
 * CLI both read it.
 */

export const ImportRowReport = z
  .object({
    index: z.number().int().meta({ description: 'Row number, 1-based; the CSV header is not counted.' }),
    valid: z.boolean(),
    errors: z.array(ProblemIssue),
    postId: z.string().optional().meta({ description: 'The created post (committed imports only).' }),
  })
  .meta({ id: 'ImportRowReport' });
export type ImportRowReport = z.infer<typeof ImportRowReport>;

export const ImportReport = z
  .object({
    rows: z.array(ImportRowReport),
    committed: z.boolean().meta({
      description:
        'True when the posts were created (now, or by an earlier import of the same file). False for a dry run, or when any row is invalid (then nothing was written).',
    }),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof ImportReport>;
