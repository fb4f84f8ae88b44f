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
    timeBudgetExceeded: z.boolean().optional().meta({
      description:
        'Present and true when the import ran out of its time budget (`IMPORT_TIME_BUDGET_MS`): downloads and rows it did not finish carry `time_budget_exceeded` errors and nothing was committed. Media already fetched are kept, so sending the file again continues where this one stopped.',
    }),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof ImportReport>;
