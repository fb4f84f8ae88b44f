import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PlatformError } from '../../errors.ts';
import { extensionFor } from '../../media/kinds.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { appendBlock, imagesMarkdown } from '../../text/markdown.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import { longFormParts } from '../long-form.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { mediumCall } from './api.ts';
import type { MediumConfig } from './config.ts';
import { mediumManifest } from './manifest.ts';
import {
  type MediumOptions,
  mediumCredentialsSchema,
  mediumKeptTags,
  mediumOptionsSchema,
} from './options.ts';
import { validateMediumPost } from './validate.ts';

const meSchema = z.object({
  id: z.string().regex(/^[\w-]{1,200}$/),
  username: z.string().max(200).optional(),
  name: z.string().max(500).optional(),
  imageUrl: z.string().optional(),
});

const postSchema = z.object({ id: z.string().min(1).max(200), url: z.string().optional() });

const uploadTimeoutMs = 5 * 60_000;

/**
 * Publishes stories to Medium with an integration token: the author from `GET /v1/me`, images to
 * `POST /v1/images`, then `POST /v1/users/{authorId}/posts` with the Markdown. See
 * docs/platforms/medium.md.
 */
export function createMediumPublisher(config: MediumConfig): Publisher<MediumOptions> {
  /** Image URLs an earlier attempt of the same publish uploaded, reused instead of uploaded again. */
  const uploads = new AttemptMemory<string>();
  const tokenOf = (account: PlatformAccount) => {
    const parsed = mediumCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Medium credentials need an integrationToken');
    return parsed.data.integrationToken;
  };
  const digest = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

  async function me(token: string, signal?: AbortSignal) {
    const parsed = meSchema.safeParse(
      await mediumCall<unknown>(config.apiUrl, token, {
        method: 'GET',
        path: '/v1/me',
        operation: 'account',
        signal,
      }),
    );
    if (!parsed.success)
      throw new PlatformError('platform_unavailable', 'Medium answered /v1/me without a user');
    return parsed.data;
  }

  async function uploadImage(token: string, file: MediaFile, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    const base = file.filename.replace(/[^\w.-]+/g, '_').replace(/\.[^.]*$/, '') || 'image';
    form.append('image', await file.blob(), `${base}.${extensionFor(file.contentType)}`);
    const answer = await mediumCall<{ url?: unknown }>(config.apiUrl, token, {
      method: 'POST',
      path: '/v1/images',
      form,
      operation: 'image',
      signal,
      timeoutMs: uploadTimeoutMs,
    });
    if (typeof answer.url !== 'string' || !/^https?:\/\//.test(answer.url))
      throw new PlatformError('platform_unavailable', 'Medium answered the upload without an image URL');
    return answer.url;
  }

  return {
    id: mediumManifest.id,
    displayName: mediumManifest.name,
    optionsSchema: mediumOptionsSchema,
    credentialsSchema: mediumCredentialsSchema,
    concurrency: 4,
    credentialConcurrency: 1,
    concurrencyKey(account) {
      const parsed = mediumCredentialsSchema.safeParse(account.credentials);
      return parsed.success ? `medium:${digest(parsed.data.integrationToken)}` : undefined;
    },
    // Medium's API lists no posts and takes no idempotency key: a story whose answer was lost
    // cannot be found, so its outcome is `unknown` until a person looks (docs/dispatch.md).
    dedupe: 'none',

    async validate(
      post: PostContent,
      account: PlatformAccount,
      media: MediaInfo[],
      options: MediumOptions,
    ): Promise<ValidationOutcome> {
      return validateMediumPost(post, account, media, options);
    },

    async publish(
      post,
      account,
      media: MediaFile[],
      options,
      context: PublishContext,
    ): Promise<PublishResult> {
      const token = tokenOf(account);
      // The author is the token's user, asked each time: it also checks the token before any
      // image is uploaded.
      const authorId = (await me(token, context.signal)).id;
      const { title, body } = longFormParts(post.message, options.title);
      const urls: string[] = [];
      for (const file of media) {
        const key = `${context.idempotencyKey}\n${file.key}`;
        const url = uploads.get(key) ?? (await uploadImage(token, file, context.signal));
        uploads.set(key, url);
        urls.push(url);
      }
      const images = urls.map((url, index) => ({ url, alt: media[index]?.altText }));
      const [cover, ...inline] = images;
      // Medium shows the title in the story only when the content holds it (its API
      // documentation): the content starts with it as a heading, then the first image (Medium's
      // featured image is the story's first), then the text and the other images.
      const head = appendBlock(`# ${title}`, cover ? imagesMarkdown([cover]) : '');
      const content = appendBlock(appendBlock(head, body), imagesMarkdown(inline));
      const story = {
        title,
        contentFormat: 'markdown',
        content,
        ...(options.tags?.length ? { tags: options.tags.slice(0, mediumKeptTags) } : {}),
        ...(options.canonicalUrl ? { canonicalUrl: options.canonicalUrl } : {}),
        publishStatus: options.publishStatus ?? 'public',
      };
      const created = postSchema.safeParse(
        await mediumCall<unknown>(config.apiUrl, token, {
          method: 'POST',
          path: `/v1/users/${encodeURIComponent(authorId)}/posts`,
          json: story,
          operation: 'post',
          signal: context.signal,
        }),
      );
      for (const file of media) uploads.delete(`${context.idempotencyKey}\n${file.key}`);
      if (!created.success)
        throw new PlatformError('platform_unavailable', 'Medium answered the story without an id');
      const { id, url } = created.data;
      return { platformPostId: id, ...(url && /^https?:\/\//.test(url) ? { url } : {}) };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const user = await me(tokenOf(account), context?.signal);
      const avatar = user.imageUrl;
      return {
        name: user.name?.trim().slice(0, 100) || user.username || user.id,
        ...(user.username ? { username: user.username } : {}),
        platformAccountId: user.id,
        ...(avatar && /^https?:\/\/\S{1,2000}$/.test(avatar) ? { avatarUrl: avatar } : {}),
      };
    },
  };
}
