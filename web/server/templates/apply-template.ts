import { parseBody } from '@postwave/shared';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { validationFailed } from '#server/http/problems.ts';
import { findOwnTemplate } from './get-template.ts';
import { TemplateIdField } from './schema.ts';

/** The field as documented, read with the shared rule: a non-string is 400, a blank one 422. */
const TemplateIdBody = z.object({ templateId: TemplateIdField });

/** The post fields a template supplies; each is replaced whole by the same field in the request. */
const templateFields = ['message', 'accountIds', 'media', 'accountOptions', 'overrides', 'thread'] as const;

/**
 * A post request body with its `templateId` (if any) expanded: every post field the body leaves
 * out comes from the template, a field the body sends wins whole. The result is parsed and
 * validated like any post request (the template's `overrides` and `accountOptions` of accounts the
 * post does not go to are dropped), so the template adds nothing a request could not say. Bodies
 * without `templateId` pass through untouched. A `templateId` of the wrong type is 400 (contract
 * B); 422 naming `templateId` when the workspace has no such template (another workspace's included).
 */
export async function withTemplate(ctx: AppContext, workspaceId: string, body: unknown): Promise<unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('templateId' in body)) return body;
  const { templateId: given, ...rest } = body as Record<string, unknown>;
  if (given === undefined) return rest;
  const { templateId } = parseBody(TemplateIdBody, { templateId: given });
  const template = await findOwnTemplate(ctx, workspaceId, templateId);
  if (!template) {
    throw validationFailed('No such template', [
      { path: 'templateId', code: 'template_not_found', message: `No template with id "${templateId}"` },
    ]);
  }
  const merged: Record<string, unknown> = { ...rest };
  for (const field of templateFields) {
    if (merged[field] === undefined) merged[field] = template[field];
  }
  // The template's per-account fields follow the accounts the post goes to: those of accounts the
  // request leaves out go (as when a post's accounts change), so they never make it invalid.
  const targets = Array.isArray(merged.accountIds) ? (merged.accountIds as unknown[]) : [];
  if (rest.overrides === undefined) merged.overrides = only(template.overrides, targets);
  if (rest.accountOptions === undefined) merged.accountOptions = only(template.accountOptions, targets);
  return merged;
}

const only = <T>(byAccount: Record<string, T>, accountIds: unknown[]): Record<string, T> =>
  Object.fromEntries(Object.entries(byAccount).filter(([id]) => accountIds.includes(id)));
