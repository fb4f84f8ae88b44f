import { ProblemError, type ProblemIssue } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { withTemplate } from '#server/templates/apply-template.ts';

/**
 * JSON rows with `templateId` start from the template exactly as `POST /api/v1/posts` does (a
 * field the row sends wins whole). An unknown template is that row's error, never the whole
 * file's, and the row is checked without it. Other values pass through for the parser to judge.
 */
export async function expandTemplates(
  ctx: AppContext,
  workspaceId: string,
  value: unknown,
): Promise<{ value: unknown; errors: Map<number, ProblemIssue[]> }> {
  const errors = new Map<number, ProblemIssue[]>();
  if (!Array.isArray(value)) return { value, errors };
  const out: unknown[] = [];
  for (const [i, element] of value.entries()) {
    try {
      out.push(await withTemplate(ctx, workspaceId, element));
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      const { templateId: _, ...rest } = element as Record<string, unknown>;
      out.push(rest);
      const { code, detail, errors: issues } = error.problem;
      errors.set(i, issues?.length ? issues : [{ path: 'templateId', code, message: detail ?? code }]);
    }
  }
  return { value: out, errors };
}
