import { isPlatformError, PlatformError } from '../../errors.ts';
import { readJson } from '../../http/fetch.ts';
import type { MediaFile } from '../../media/media-file.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import { LinkedInApi } from './api.ts';
import type { LinkedInConfig } from './config.ts';
import { escapeLittleText } from './little-text.ts';
import { uploadImage, uploadVideo } from './media.ts';
import { linkedInPostMetrics } from './metrics.ts';
import { LinkedInToken, memberProfile, organizationProfile } from './oauth.ts';
import {
  type LinkedInCredentials,
  type LinkedInOptions,
  linkedInAuthorPattern,
  linkedInCredentialsSchema,
  linkedInOptionsSchema,
} from './options.ts';
import { linkedInStagedMedia, stagedLinkedInContent } from './stage.ts';
import { validateLinkedInPost } from './validate.ts';

type Context = Partial<Pick<PublishContext, 'signal' | 'onCredentialsRefreshed' | 'logger'>>;

/**
 * Publishes to a LinkedIn member or organization page through the versioned Posts API:
 * media first (Images or Videos API, owned by the author), then one post whose commentary is
 * escaped "little text".
 */
export function createLinkedInPublisher(config: LinkedInConfig): Publisher<LinkedInOptions> {
  /** Publishes that sent their post: a retry refused as a duplicate is that post, whose answer was lost. */
  const sentPosts = new AttemptMemory<true>();

  function api(account: PlatformAccount, context: Context): LinkedInApi {
    const token = new LinkedInToken({
      config,
      credentials: credentialsOf(account),
      signal: context.signal,
      onRefreshed: context.onCredentialsRefreshed,
      logger: context.logger,
    });
    return new LinkedInApi(config, token, context.signal);
  }

  async function mediaContent(client: LinkedInApi, author: string, media: MediaFile[], signal: AbortSignal) {
    if (media.length === 0) return undefined;
    const video = media.find((m) => m.kind === 'video');
    if (video) {
      const id = await uploadVideo(client, author, video, {
        intervalMs: config.videoPollIntervalMs,
        timeoutMs: config.videoProcessingTimeoutMs,
        signal,
      });
      return { media: { id } };
    }
    // Images carry `altText` in the post's content (the Posts API has none for videos).
    const images: { id: string; altText?: string }[] = [];
    for (const image of media) {
      const id = await uploadImage(client, author, image);
      images.push({ id, ...(image.altText ? { altText: image.altText } : {}) });
    }
    if (images.length === 1) return { media: images[0]! };
    return { multiImage: { images } };
  }

  return {
    id: 'linkedin',
    displayName: 'LinkedIn',
    optionsSchema: linkedInOptionsSchema,
    credentialsSchema: linkedInCredentialsSchema,
    concurrency: 10,
    // A resend refused as a duplicate (422) names the earlier post.
    dedupe: 'lookup',

    async validate(post, account, media, options) {
      return validateLinkedInPost(post, account, media, options);
    },

    // The media registered and uploaded ahead (stage.ts); at the due time a check and the post.
    async stage(_post, account, media, _options, context) {
      const author = authorOf(account);
      const content = await mediaContent(api(account, context), author, media, context.signal);
      if (!content) throw new PlatformError('media_rejected', 'A post without media has nothing to stage');
      return linkedInStagedMedia(content, author, media);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const author = authorOf(account);
      const client = api(account, context);
      const content =
        (await stagedLinkedInContent(client, context.staged, author, media)) ??
        (await mediaContent(client, author, media, context.signal));
      const retry = sentPosts.get(context.idempotencyKey) === true || context.resumed !== undefined;
      sentPosts.set(context.idempotencyKey, true);
      let response: Response;
      try {
        response = await client.request(
          '/rest/posts',
          {
            method: 'POST',
            json: {
              author,
              commentary: escapeLittleText(post.message),
              visibility: options.visibility ?? 'PUBLIC',
              distribution: {
                feedDistribution: 'MAIN_FEED',
                targetEntities: [],
                thirdPartyDistributionChannels: [],
              },
              ...(content ? { content } : {}),
              lifecycleState: 'PUBLISHED',
              isReshareDisabledByAuthor: options.disableReshare ?? false,
            },
          },
          'the post',
        );
      } catch (error) {
        const earlier =
          retry && isPlatformError(error) && error.status === 422 ? duplicateOf(error.message) : undefined;
        if (!earlier) throw error;
        context.logger.info(
          { urn: earlier },
          'LinkedIn post of an earlier attempt found; not posting it again',
        );
        sentPosts.delete(context.idempotencyKey);
        return { platformPostId: earlier, url: `https://www.linkedin.com/feed/update/${earlier}/` };
      }
      sentPosts.delete(context.idempotencyKey);
      await response.body?.cancel();
      const urn = response.headers.get('x-restli-id') ?? response.headers.get('x-linkedin-id');
      if (!urn) throw new PlatformError('internal', 'LinkedIn created the post but returned no id');
      return { platformPostId: urn, url: `https://www.linkedin.com/feed/update/${urn}/` };
    },

    // `POST /rest/socialActions/{post urn}/comments` with the versioned headers, as the post's author.
    async comment(parent, text, account, _options, context): Promise<PublishResult> {
      const author = authorOf(account);
      const client = api(account, context);
      const target = encodeURIComponent(parent.platformPostId);
      const response = await client.request(
        `/rest/socialActions/${target}/comments`,
        {
          method: 'POST',
          // A comment's text is plain (mentions go in `attributes`), not the Posts API's little text.
          json: { actor: author, object: parent.platformPostId, message: { text } },
        },
        'the comment',
      );
      // The created comment comes back in the body (`commentUrn`); its URN is also in `x-restli-id`.
      const created = ((await readJson(response)) ?? {}) as { commentUrn?: string };
      const urn = created.commentUrn ?? response.headers.get('x-restli-id') ?? undefined;
      if (!urn) throw new PlatformError('internal', 'LinkedIn created the comment but returned no id');
      return {
        platformPostId: urn,
        url: `https://www.linkedin.com/feed/update/${parent.platformPostId}/?commentUrn=${encodeURIComponent(urn)}`,
      };
    },

    metrics(targets, account, context) {
      return linkedInPostMetrics(api(account, context), targets);
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const author = authorOf(account);
      const client = api(account, context ?? {});
      if (author.startsWith('urn:li:organization:')) return organizationProfile(client, author);
      const member = await memberProfile(client);
      if (member.platformAccountId !== author) {
        throw new PlatformError(
          'target_unreachable',
          `This LinkedIn token belongs to ${member.platformAccountId}, not ${author}`,
        );
      }
      return member;
    },
  };
}

/** The post named in LinkedIn's "Content is a duplicate of urn:li:share:…" refusal. */
function duplicateOf(message: string): string | undefined {
  if (!/duplicate/i.test(message)) return undefined;
  return message.match(/urn:li:(?:share|ugcPost):\d+/)?.[0];
}

function authorOf(account: PlatformAccount): string {
  if (!linkedInAuthorPattern.test(account.platformAccountId)) {
    throw new PlatformError(
      'target_unreachable',
      'A LinkedIn platformAccountId is urn:li:person:<id> or urn:li:organization:<number>',
    );
  }
  return account.platformAccountId;
}

function credentialsOf(account: PlatformAccount): LinkedInCredentials {
  const parsed = linkedInCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError('credentials_invalid', 'LinkedIn credentials need an accessToken');
  return parsed.data;
}
