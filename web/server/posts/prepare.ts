import {
  type MediaReference,
  type NormalizedOverride,
  type NormalizedThreadPart,
  PostingService,
  type PreparedPost,
  type ProblemIssue,
  type ValidationResponse,
} from '@postwave/shared';
import { type AccountCache, accountLookup } from '#server/accounts/list-accounts.ts';
import { optionChoicesLoader } from '#server/accounts/option-choices.ts';
import type { AppContext } from '#server/context.ts';
import { validationFailed } from '#server/http/problems.ts';
import { withLibraryAltText } from '#server/media/alt-text.ts';
import { ownMediaResolver, userStorage } from '#server/media/service.ts';

/*
 * Whether a post can be published, as the SDK sees it: every target validated (text as each
 * platform counts it, media, options). The one place every path asks: creating, scheduling and
 * publishing a post, MCP's checks before asking the user to confirm, imports, staging.
 */

/** The SDK's posting service as one user sees it: their accounts, their media. */
export function postingServiceFor(ctx: AppContext, workspaceId: string): PostingService {
  return new PostingService({
    publishers: ctx.publishers,
    storage: userStorage(ctx, workspaceId),
    limiter: ctx.limiter,
    logger: ctx.logger,
    resolveOwnMedia: ownMediaResolver(ctx, workspaceId),
    // Scheduler users choose their accounts' hosts: those are reached through the SSRF-safe fetch.
    accountHostFetch: ctx.userUrlFetch,
    loadOptionChoices: optionChoicesLoader(ctx),
  });
}

export interface PostContentInput {
  message: string;
  accountIds: readonly string[];
  media: readonly MediaReference[];
  accountOptions: Record<string, Record<string, unknown>>;
  overrides?: Readonly<Record<string, NormalizedOverride>>;
  thread?: readonly NormalizedThreadPart[];
}

/** Validates and prepares a post; `accounts` shares account lookups between calls (dispatch, imports). */
export async function preparePost(
  ctx: AppContext,
  workspaceId: string,
  input: PostContentInput,
  accounts?: AccountCache,
): Promise<PreparedPost> {
  const withAlt = await withLibraryAltText(ctx, workspaceId, input);
  return postingServiceFor(ctx, workspaceId).prepare(withAlt, accountLookup(ctx, workspaceId, accounts));
}

/** Per-account validation errors flattened into problem issues. */
export function validationIssues(validation: ValidationResponse): ProblemIssue[] {
  return validation.results.flatMap((r) =>
    r.errors.map((e) => ({
      accountId: r.accountId,
      code: e.code,
      message: e.message,
      ...(e.path ? { path: e.path } : {}),
    })),
  );
}

/** Why the post cannot be published, per account; empty when it can. */
export async function publishabilityIssues(
  ctx: AppContext,
  workspaceId: string,
  input: PostContentInput,
  accounts?: AccountCache,
): Promise<ProblemIssue[]> {
  const prepared = await preparePost(ctx, workspaceId, input, accounts);
  return prepared.targets ? [] : validationIssues(prepared.validation);
}

/** The prepared post, or 422 `validation_failed` with per-account errors when it is not valid. */
export async function assertPublishable(
  ctx: AppContext,
  workspaceId: string,
  input: PostContentInput,
): Promise<PreparedPost> {
  const prepared = await preparePost(ctx, workspaceId, input);
  if (!prepared.targets)
    throw validationFailed(
      'The post is not valid for some of its accounts',
      validationIssues(prepared.validation),
    );
  return prepared;
}
