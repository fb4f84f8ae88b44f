import type { PlatformTraits } from '../platforms/registry.ts';
import type { AnyPublisher } from '../platforms/types.ts';
import { problem } from '../problems.ts';
import type { MediaReference } from '../schemas/media.ts';
import type { Problem, ProblemIssue } from '../schemas/problem.ts';
import type { ValidationIssue } from '../schemas/results.ts';

/**
 * The checks of the composer fields (docs/composer-fields.md) that do not depend on a platform's own rules:
 * whether it can take a thread, a first comment and alt text at all (its manifest's `features`), and how long
 * they may be. The platform's own `validate` still checks every part's text and media.
 */

export interface FeatureIssues {
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

/** Media references with where they sit in the request (`media`, `overrides.<id>.media`, `thread[0].media`). */
export interface MediaAt {
  path: string;
  refs: readonly MediaReference[];
}

/** Alt text length as people and platforms count it: in characters (code points), not UTF-16 units. */
export const altTextLength = (text: string): number => [...text].length;

export function checkFeatures(
  publisher: AnyPublisher,
  traits: PlatformTraits,
  input: {
    accountId: string;
    threadParts: number;
    firstComment: string | undefined;
    options: Record<string, unknown>;
    media: readonly MediaAt[];
  },
): FeatureIssues {
  const { features } = traits;
  const name = publisher.displayName;
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];

  // A post with a thread can go to networks with and without threads (the composer sends one
  // thread for all): where there are none, only the first message is posted. Said as a warning,
  // also when no target has threads, so a client gets one consistent answer.
  if (input.threadParts > 0 && !features.thread) {
    warnings.push({
      code: 'thread_unsupported',
      message: `${name} has no threads: only the first message is posted`,
      path: 'thread',
    });
  }

  if (input.firstComment !== undefined) {
    const path = `accountOptions.${input.accountId}.firstComment`;
    // A platform without comments takes the first comment as a reply, which needs its thread support.
    if (!features.firstComment || (!publisher.comment && !features.thread)) {
      errors.push({
        code: 'first_comment_unsupported',
        message: `${name} does not support a first comment; remove it for this account`,
        path,
      });
    } else if (traits.text) {
      const count = traits.text.count({
        message: input.firstComment,
        hasMedia: false,
        options: input.options,
      });
      if (count.used > count.limit) {
        errors.push({
          code: 'first_comment_too_long',
          message: `The first comment is ${count.used} ${count.unit}; ${name} allows ${count.limit}`,
          path,
        });
      }
    }
  }

  let warned = false;
  for (const { path, refs } of input.media) {
    for (const [index, ref] of refs.entries()) {
      if (!ref.altText) continue;
      const at = `${path}[${index}].altText`;
      if (features.altText === null) {
        // One warning per target says it; the media is still posted, without the description.
        if (!warned) {
          warnings.push({
            code: 'alt_text_unsupported',
            message: `${name} does not support alt text; the media is posted without it`,
            path: at,
          });
          warned = true;
        }
      } else if (altTextLength(ref.altText) > features.altText.maxLength) {
        errors.push({
          code: 'alt_text_too_long',
          message: `Alt text is ${altTextLength(ref.altText)} characters; ${name} allows ${features.altText.maxLength}`,
          path: at,
        });
      }
    }
  }
  return { errors, warnings };
}

/** `overrides` keys that are not among `accountIds`: each is a 422 issue. */
export function overrideKeyIssues(
  accountIds: readonly string[],
  overrides: Readonly<Record<string, unknown>> | undefined,
): ProblemIssue[] {
  if (!overrides) return [];
  const targets = new Set(accountIds);
  return Object.keys(overrides)
    .filter((id) => !targets.has(id))
    .map((id) => ({
      path: `overrides.${id}`,
      code: 'override_unknown_account',
      message: `"${id}" is not one of accountIds; an override applies only to an account the post goes to`,
    }));
}

/** The 422 problem for override keys outside `accountIds`, or undefined when they all match. */
export function overrideKeysProblem(
  accountIds: readonly string[],
  overrides: Readonly<Record<string, unknown>> | undefined,
): Problem | undefined {
  const issues = overrideKeyIssues(accountIds, overrides);
  if (issues.length === 0) return undefined;
  return problem('validation_failed', 'overrides name accounts the post does not go to', { errors: issues });
}
