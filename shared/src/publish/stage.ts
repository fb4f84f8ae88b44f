import { createHash } from 'node:crypto';
import { toPlatformError } from '../errors.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import type { Logger } from '../logger.ts';
import type { MediaFile } from '../media/media-file.ts';
import type { AnyPublisher, StagedMedia } from '../platforms/types.ts';
import type { PreparedPost, PreparedTarget } from './posting.ts';

/*
 * Staging: a scheduled post's media uploaded to the platform ahead of its due time
 * (`Publisher.stage`), so that only the final call happens on time. Both deployments may call
 * it; the Scheduler's dispatcher does, for posts due within `DISPATCH_STAGE_LEAD_MS`.
 */

/** Whether staging this post for this publisher is worth an upload ahead: it can, and there is video. */
export function benefitsFromStaging(
  publisher: AnyPublisher,
  media: readonly { contentType: string }[],
): boolean {
  return typeof publisher.stage === 'function' && media.some((m) => m.contentType.startsWith('video/'));
}

/**
 * A digest of what a target's staged upload was made from: the message, the media keys and the
 * target's options. A handle is passed back only to a publish of the same content.
 */
export function stagedContentKey(
  message: string,
  media: readonly { key: string }[],
  options: Readonly<Record<string, unknown>> | undefined,
): string {
  const canonical = JSON.stringify([message, media.map((m) => m.key), sortedKeys(options ?? {})]);
  return createHash('sha256').update(canonical).digest('base64url');
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

export interface StageHooks {
  /** The same base as the publish's, so a publisher may recognise its own upload. */
  idempotencyKey: string;
  signal: AbortSignal;
  logger: Logger;
  onCredentialsRefreshed?: (accountId: string, credentials: Record<string, unknown>) => void | Promise<void>;
  resolveOwnMedia?: (url: string) => Promise<MediaFile | null>;
  accountHostFetch?: FetchLike;
}

export type StageOutcome =
  | { accountId: string; platform: string; staged: StagedMedia }
  | { accountId: string; platform: string; error: { code: string; message: string; retryable: boolean } };

/**
 * Stages one prepared target. Never throws: a failure is an outcome, and the due-time publish
 * then uploads as usual. Not run under the publish limiter on purpose: a long upload ahead of
 * time must not hold the slots of publishes that are due now.
 */
export async function stageTarget(
  prepared: PreparedPost,
  { account, publisher, options }: PreparedTarget,
  hooks: StageHooks,
): Promise<StageOutcome> {
  const base = { accountId: account.id, platform: account.platform };
  if (!publisher.stage)
    return {
      ...base,
      error: { code: 'not_supported', message: 'This platform cannot stage', retryable: false },
    };
  try {
    const staged = await publisher.stage({ message: prepared.message }, account, prepared.media, options, {
      signal: hooks.signal,
      idempotencyKey: `${hooks.idempotencyKey}:${account.id}`,
      logger: hooks.logger,
      onCredentialsRefreshed: (credentials) => hooks.onCredentialsRefreshed?.(account.id, credentials),
      ...(hooks.resolveOwnMedia ? { resolveOwnMedia: hooks.resolveOwnMedia } : {}),
      ...(hooks.accountHostFetch ? { accountHostFetch: hooks.accountHostFetch } : {}),
    });
    return { ...base, staged };
  } catch (thrown) {
    const error = toPlatformError(thrown);
    hooks.logger.warn(
      { accountId: account.id, platform: account.platform, code: error.code },
      'staging failed; the due-time publish uploads as usual',
    );
    return { ...base, error: error.toJSON() };
  }
}
