import { z } from 'zod';
import { TargetResult } from './results.ts';

export const ProblemIssue = z
  .object({
    path: z.string().optional(),
    accountId: z.string().optional(),
    code: z.string(),
    message: z.string(),
    hint: z.string().optional().meta({
      description:
        'On an issue a platform raised (its credentials refused, its target unreachable): one sentence in plain words on what the person can do, as on the problem itself.',
    }),
  })
  .meta({ id: 'ProblemIssue' });
export type ProblemIssue = z.infer<typeof ProblemIssue>;

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    hint: z.string().optional().meta({
      description:
        'Present when a platform refused or failed (connecting or reconnecting an account, loading its option choices): one sentence in plain words on what the person can do (reconnect, check the target, wait), keyed by the platform error code (docs/operations.md#errors-in-plain-words).',
    }),
    errors: z.array(ProblemIssue).optional(),
    results: z.array(TargetResult).optional(),
    requiredRole: z.string().optional().meta({
      description:
        'On 403 `forbidden` for a workspace role: the least role that may do it (docs/workspaces.md).',
    }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (`application/problem+json`).' });
export type Problem = z.infer<typeof Problem>;
