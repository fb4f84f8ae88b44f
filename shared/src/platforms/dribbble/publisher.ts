import { PlatformError } from '../../errors.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { sleep } from '../../publish/retry.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationContext,
  ValidationOutcome,
} from '../types.ts';
import { dribbbleCall } from './api.ts';
import type { DribbbleConfig } from './config.ts';
import { dribbbleImage, dribbbleManifest } from './manifest.ts';
import { dribbbleProfile } from './oauth.ts';
import { type DribbbleOptions, dribbbleCredentialsSchema, dribbbleOptionsSchema } from './options.ts';
import { checkShotImage } from './shot-image.ts';
import { validateDribbbleShot } from './validate.ts';

interface Shot {
  id?: unknown;
  title?: unknown;
  html_url?: unknown;
  published_at?: unknown;
  created_at?: unknown;
}

const uploadTimeoutMs = 5 * 60_000;
const clockSlackMs = 10 * 60_000;

function unclearOutcome(error: unknown): boolean {
  if (!(error instanceof PlatformError)) return false;
  return error.code === 'timeout' || error.code === 'network_error' || error.code === 'platform_unavailable';
}

function result(id: string, shot: Shot | undefined): PublishResult {
  const url = shot?.html_url;
  return { platformPostId: id, ...(typeof url === 'string' && /^https?:\/\//.test(url) ? { url } : {}) };
}

/**
 * Publishes one shot to Dribbble with an OAuth token: the image's dimensions checked from its
 * header first, then `POST /shots` (multipart), which answers 202 with the shot's `Location`, and
 * `GET /shots/{id}` until the shot exists. See docs/platforms/dribbble.md.
 */
export function createDribbblePublisher(config: DribbbleConfig): Publisher<DribbbleOptions> {
  /** Shots Dribbble accepted (202) whose existence an attempt did not see: the retry only waits. */
  const accepted = new AttemptMemory<string>();
  const unclear = new AttemptMemory<number>();
  const tokenOf = (account: PlatformAccount) => {
    const parsed = dribbbleCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Dribbble credentials need an accessToken');
    return parsed.data.accessToken;
  };

  /** `GET /shots/{id}` until it answers the shot (404 while Dribbble processes it). */
  async function waitForShot(token: string, id: string, signal: AbortSignal): Promise<Shot> {
    const deadline = Date.now() + config.processingTimeoutMs;
    let wait = config.pollMinMs;
    for (;;) {
      const answer = await dribbbleCall<Shot>(config.apiUrl, token, {
        method: 'GET',
        path: `/shots/${id}`,
        operation: 'read',
        signal,
        expect: [404],
      });
      if (answer.status !== 404) return answer.body ?? {};
      if (Date.now() + wait > deadline) {
        throw new PlatformError(
          'timeout',
          `Dribbble accepted shot ${id} but it did not exist within ${config.processingTimeoutMs} ms`,
        );
      }
      await sleep(wait, signal);
      wait = Math.min(wait * 2, config.pollMaxMs);
    }
  }

  /** The user's shot with this title since `since`, among the latest ones. */
  async function findRecent(token: string, title: string, since: number, signal: AbortSignal) {
    try {
      const { body } = await dribbbleCall<Shot[]>(config.apiUrl, token, {
        method: 'GET',
        path: '/user/shots',
        query: { per_page: '30' },
        operation: 'read',
        signal,
      });
      const match = (Array.isArray(body) ? body : []).find((shot) => {
        const at = shot.created_at ?? shot.published_at;
        return (
          typeof shot.id === 'number' &&
          shot.title === title &&
          (typeof at !== 'string' || Date.parse(at) >= since - clockSlackMs)
        );
      });
      return match ? result(String(match.id), match) : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    id: dribbbleManifest.id,
    displayName: dribbbleManifest.name,
    optionsSchema: dribbbleOptionsSchema,
    credentialsSchema: dribbbleCredentialsSchema,
    concurrency: 4,
    credentialConcurrency: 1,
    // A shot whose answer was lost is found among the user's latest shots by its title; one that
    // was accepted (202) is waited for, never uploaded again.
    dedupe: 'lookup',

    async validate(
      post: PostContent,
      account: PlatformAccount,
      media: MediaInfo[],
      options: DribbbleOptions,
      context?: ValidationContext,
    ): Promise<ValidationOutcome> {
      const outcome = validateDribbbleShot(post, account, media, options);
      const image = media[0];
      if (
        media.length === 1 &&
        image &&
        dribbbleImage.types.includes(image.contentType) &&
        context?.resolveOwnMedia
      ) {
        // The dimensions come from the stored file's header (the publish checks them again).
        const file = await context.resolveOwnMedia(image.url).catch(() => null);
        if (file) outcome.errors.push(...(await checkShotImage(file).catch(() => [])));
      }
      return outcome;
    },

    async publish(
      post,
      account,
      media: MediaFile[],
      options,
      context: PublishContext,
    ): Promise<PublishResult> {
      const token = tokenOf(account);
      const title = options.title?.trim() ?? '';
      const image = media[0];
      if (!title || !image || media.length !== 1)
        throw new PlatformError('content_rejected', 'A Dribbble shot is one image with a title', {
          retryable: false,
        });
      const key = context.idempotencyKey;

      let id = accepted.get(key);
      if (id === undefined) {
        const since = context.resumed?.since.getTime() ?? unclear.get(key);
        if (since !== undefined) {
          const found = await findRecent(token, title, since, context.signal);
          if (found) {
            unclear.delete(key);
            return found;
          }
        }
        // Dimensions before anything is sent: Dribbble checks them only after accepting the upload.
        const issues = await checkShotImage(image);
        if (issues.length > 0)
          throw new PlatformError('media_rejected', issues[0]!.message, { retryable: false });
        const form = new FormData();
        const base = image.filename.replace(/[^\w.-]+/g, '_').replace(/\.[^.]*$/, '') || 'shot';
        form.append('image', await image.blob(), `${base}.${extensionFor(image.contentType)}`);
        form.append('title', title);
        if (post.message.trim()) form.append('description', post.message);
        for (const tag of options.tags ?? []) form.append('tags', tag);
        let answer: Awaited<ReturnType<typeof dribbbleCall<unknown>>>;
        try {
          answer = await dribbbleCall<unknown>(config.apiUrl, token, {
            method: 'POST',
            path: '/shots',
            form,
            operation: 'shot',
            signal: context.signal,
            timeoutMs: uploadTimeoutMs,
          });
        } catch (error) {
          if (unclearOutcome(error)) unclear.set(key, since ?? Date.now() - 1000);
          throw error;
        }
        unclear.delete(key);
        const location = answer.headers.get('location') ?? '';
        const found = /\/shots\/(\d{1,20})\/?$/.exec(location);
        if (!found)
          throw new PlatformError('platform_unavailable', 'Dribbble accepted the shot without its Location', {
            retryable: false,
          });
        id = found[1]!;
        accepted.set(key, id);
      }
      const shot = await waitForShot(token, id, context.signal);
      accepted.delete(key);
      return result(id, shot);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      return dribbbleProfile(config.apiUrl, tokenOf(account), context?.signal);
    },
  };
}
