import type { OptionChoicesLoader } from '../platforms/option-choices.ts';
import { visibleOptions } from '../platforms/option-fields.ts';
import type { PublisherRegistry } from '../platforms/registry.ts';
import type { PublishContext } from '../platforms/types.ts';
import type { NormalizedOverride } from '../schemas/post.ts';
import type { AccountValidation, ValidationIssue } from '../schemas/results.ts';
import type { Storage } from '../storage/types.ts';
import { checkFeatures } from './composer-checks.ts';
import { checkOptionFields, optionFieldsNeedChecks, uniqueIssues } from './option-checks.ts';
import type { AccountLookup, PostInput, PreparedTarget } from './posting-types.ts';
import { type ResolvedMedia, resolveMedia } from './resolve-media.ts';

/** What checking a target needs from the posting service (PostingService builds it once). */
export interface TargetCheckDeps {
  publishers: PublisherRegistry;
  storage: Storage;
  unknownAccount: (accountId: string) => { code: string; message: string };
  extraContext: Pick<PublishContext, 'resolveOwnMedia' | 'accountHostFetch'>;
  loadOptionChoices: OptionChoicesLoader;
}

/**
 * One account's version of a post checked against its platform: the account and its publisher,
 * its options (visible fields only, parsed by the platform's schema, choices checked), its
 * features, and the message and each thread part by the platform's own rules. Valid, it comes
 * with the target publish() sends.
 */
export async function validateTarget(
  deps: TargetCheckDeps,
  post: PostInput,
  accountId: string,
  lookup: AccountLookup,
  base: ResolvedMedia,
  threadMedia: ResolvedMedia[],
): Promise<{ result: AccountValidation; target?: PreparedTarget }> {
  const found = lookup(accountId);
  const account = found instanceof Promise ? await found : found;
  if (!account) {
    const issue = deps.unknownAccount(accountId);
    return { result: invalid(accountId, 'unknown', [{ ...issue, path: 'accountIds' }]) };
  }
  const publisher = deps.publishers.get(account.platform);
  if (!publisher) {
    return {
      result: invalid(accountId, account.platform, [
        { code: 'platform_unsupported', message: `Platform "${account.platform}" is not supported` },
      ]),
    };
  }
  // This account's version: an override's fields replace the base post's.
  const override = post.overrides?.[accountId];
  const message = override?.message ?? post.message;
  const mediaPath = override?.media ? `overrides.${accountId}.media` : 'media';
  const mediaRefs = override?.media ?? post.media;
  const resolved = override?.media ? await resolveMedia(override.media, deps.storage, mediaPath) : base;
  // A platform without threads posts only the first message (warning `thread_unsupported`).
  const traits = deps.publishers.traits(account.platform);
  const hasThreads = traits.features.thread;
  const thread = hasThreads ? (post.thread ?? []) : [];
  const mediaIssues =
    threadMedia.length === 0
      ? resolved.issues
      : [...resolved.issues, ...threadMedia.flatMap((m) => m.issues)];

  const optionFields = traits.options ?? [];
  // Values of fields their `showWhen` hides are neither validated nor published.
  const { firstComment: rawComment, ...rawOptions } = visibleOptions(optionFields, {
    ...account.options,
    ...post.accountOptions?.[accountId],
  });
  if (rawComment !== undefined && typeof rawComment !== 'string') {
    return {
      result: invalid(accountId, account.platform, [
        ...mediaIssues,
        {
          code: 'invalid_option',
          message: 'firstComment must be a string',
          path: `accountOptions.${accountId}.firstComment`,
        },
      ]),
    };
  }
  // A blank first comment is no first comment (a composer sends the empty field as "").
  const firstComment = rawComment?.trim() ? rawComment : undefined;
  const parsed = publisher.optionsSchema.safeParse(rawOptions);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      code: 'invalid_option',
      message: issue.message,
      path: ['accountOptions', accountId, ...issue.path.map(String)].join('.'),
    }));
    return { result: invalid(accountId, account.platform, [...mediaIssues, ...errors]) };
  }
  const options = parsed.data as Record<string, unknown>;
  const context = deps.extraContext;
  const features = checkFeatures(publisher, traits, {
    accountId,
    threadParts: post.thread?.length ?? 0,
    firstComment,
    options,
    media: [
      { path: mediaPath, refs: mediaRefs },
      ...thread.map((part, i) => ({ path: `thread[${i}].media`, refs: part.media })),
    ],
  });
  // Without a field it could flag there is nothing for checkOptionFields to find: skip its promise.
  const [first, fieldChecks] = !optionFieldsNeedChecks(publisher, optionFields)
    ? [await publisher.validate({ message }, account, resolved.files, options, context), noIssues]
    : await Promise.all([
        publisher.validate({ message }, account, resolved.files, options, context),
        checkOptionFields({
          publisher,
          account,
          fields: optionFields,
          options,
          load: deps.loadOptionChoices,
        }),
      ]);
  const errors = [
    ...mediaIssues,
    ...first.errors.map((issue) => overridePath(issue, accountId, override)),
    ...fieldChecks.errors,
    ...features.errors,
  ];
  const warnings = [...first.warnings, ...fieldChecks.warnings, ...features.warnings];
  // Each part is checked with the platform's own rules (none where the platform posts no parts).
  const outcomes =
    thread.length === 0
      ? []
      : await Promise.all(
          thread.map((part, i) =>
            publisher.validate({ message: part.message }, account, threadMedia[i]!.files, options, context),
          ),
        );
  for (const [i, outcome] of outcomes.entries()) {
    errors.push(...outcome.errors.map((issue) => inThreadPart(issue, i)));
    warnings.push(...outcome.warnings.map((issue) => inThreadPart(issue, i)));
  }
  const result: AccountValidation = {
    accountId,
    platform: account.platform,
    valid: errors.length === 0,
    errors: uniqueIssues(errors),
    warnings: uniqueIssues(warnings),
  };
  const target: PreparedTarget = {
    account,
    publisher,
    options,
    message,
    media: resolved.files,
    thread: thread.map((part, i) => ({ message: part.message, media: threadMedia[i]!.files })),
    ...(firstComment !== undefined ? { firstComment } : {}),
    ...(optionFields.some((f) => f.namesHosts && post.accountOptions?.[accountId]?.[f.name] !== undefined)
      ? { requestNamesHosts: true as const }
      : {}),
  };
  return { result, target };
}

/** A platform issue of the first message, pointed at the override that produced it. */
function overridePath(
  issue: ValidationIssue,
  accountId: string,
  override: NormalizedOverride | undefined,
): ValidationIssue {
  if (!override || !issue.path) return issue;
  const fromOverride =
    (override.message !== undefined && issue.path === 'message') ||
    (override.media !== undefined && issue.path.startsWith('media'));
  return fromOverride ? { ...issue, path: `overrides.${accountId}.${issue.path}` } : issue;
}

/** A platform issue of thread part `i` (request path `thread[i]`). */
function inThreadPart(issue: ValidationIssue, i: number): ValidationIssue {
  return {
    ...issue,
    message: `Thread part ${i + 1}: ${issue.message}`,
    path: issue.path ? `thread[${i}].${issue.path}` : `thread[${i}]`,
  };
}

/** No option fields, no option issues (shared, never written to). */
const noIssues: { errors: readonly ValidationIssue[]; warnings: readonly ValidationIssue[] } = Object.freeze({
  errors: Object.freeze([]) as readonly ValidationIssue[],
  warnings: Object.freeze([]) as readonly ValidationIssue[],
});

function invalid(accountId: string, platform: string, errors: ValidationIssue[]): AccountValidation {
  return { accountId, platform, valid: false, errors, warnings: [] };
}
