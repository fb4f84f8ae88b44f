import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
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
import { hashnodeQuery } from './api.ts';
import type { HashnodeConfig } from './config.ts';
import { hashnodeManifest } from './manifest.ts';
import {
  type HashnodeOptions,
  hashnodeCredentialsSchema,
  hashnodeOptionsSchema,
  hashnodeTag,
} from './options.ts';
import { draftMutation, meQuery, publicationQuery, publishMutation, recentQuery } from './queries.ts';
import { validateHashnodePost } from './validate.ts';

interface Me {
  id?: unknown;
  username?: unknown;
  name?: unknown;
  profilePicture?: unknown;
  publications?: { edges?: { node?: { id?: unknown; title?: unknown; url?: unknown } }[] };
}

interface Found {
  id?: unknown;
  title?: unknown;
  url?: unknown;
  publishedAt?: unknown;
  updatedAt?: unknown;
}

/** How far before an attempt a found post may be dated: clocks differ. */
const clockSlackMs = 10 * 60_000;

function unclearOutcome(error: unknown): boolean {
  if (!(error instanceof PlatformError)) return false;
  return error.code === 'timeout' || error.code === 'network_error' || error.code === 'platform_unavailable';
}

const httpUrl = (url: unknown): { url?: string } =>
  typeof url === 'string' && /^https?:\/\//.test(url) ? { url } : {};

/**
 * Publishes to a Hashnode publication through its GraphQL API with a Personal Access Token:
 * `publishPost` (or `createDraft`) with the Markdown, tags, cover image by our public URL and the
 * canonical URL. See docs/platforms/hashnode.md.
 */
export function createHashnodePublisher(config: HashnodeConfig): Publisher<HashnodeOptions> {
  const unclear = new AttemptMemory<number>();
  const tokenOf = (account: PlatformAccount) => {
    const parsed = hashnodeCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError('credentials_invalid', 'Hashnode credentials need a personalAccessToken');
    return parsed.data.personalAccessToken;
  };
  const publicationOf = (account: PlatformAccount) => {
    const id = account.platformAccountId.trim();
    if (!/^[a-f0-9]{24}$/i.test(id))
      throw new PlatformError('target_unreachable', 'The account names no Hashnode publication id', {
        retryable: false,
      });
    return id;
  };

  /** The publication's post (or draft) with this title since `since`, among its latest ones. */
  async function findRecent(
    token: string,
    publicationId: string,
    title: string,
    draft: boolean,
    since: number,
    signal: AbortSignal,
  ): Promise<PublishResult | undefined> {
    try {
      const data = await hashnodeQuery<{
        publication?: {
          posts?: { edges?: { node?: Found }[] };
          drafts?: { edges?: { node?: Found }[] };
        } | null;
      }>(config.apiUrl, token, {
        query: recentQuery,
        variables: { id: publicationId },
        operation: 'read',
        signal,
      });
      const list = (draft ? data.publication?.drafts : data.publication?.posts)?.edges ?? [];
      const match = list
        .map((edge) => edge.node)
        .find((node) => {
          const at = draft ? node?.updatedAt : node?.publishedAt;
          return (
            typeof node?.id === 'string' &&
            node.title === title &&
            (typeof at !== 'string' || Date.parse(at) >= since - clockSlackMs)
          );
        });
      return match ? { platformPostId: match.id as string, ...httpUrl(match.url) } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A publication named by id that `me` did not list (a team publication the user writes for):
   * it counts when Hashnode answers it to this token.
   */
  async function publicationById(token: string, id: string, signal?: AbortSignal) {
    const data = await hashnodeQuery<{ publication?: { id?: unknown; title?: unknown } | null }>(
      config.apiUrl,
      token,
      {
        query: publicationQuery,
        variables: { id },
        operation: 'read',
        signal,
      },
    ).catch(() => undefined);
    const found = data?.publication;
    return typeof found?.id === 'string' ? { id: found.id, title: found.title } : undefined;
  }

  return {
    id: hashnodeManifest.id,
    displayName: hashnodeManifest.name,
    optionsSchema: hashnodeOptionsSchema,
    credentialsSchema: hashnodeCredentialsSchema,
    concurrency: 4,
    credentialConcurrency: 2,
    concurrencyKey(account) {
      const parsed = hashnodeCredentialsSchema.safeParse(account.credentials);
      return parsed.success
        ? `hashnode:${createHash('sha256').update(parsed.data.personalAccessToken).digest('hex').slice(0, 16)}`
        : undefined;
    },
    // A post whose answer was lost is found among the publication's latest posts (or drafts) by its title.
    dedupe: 'lookup',

    async validate(
      post: PostContent,
      account: PlatformAccount,
      media: MediaInfo[],
      options: HashnodeOptions,
    ): Promise<ValidationOutcome> {
      return validateHashnodePost(post, account, media, options);
    },

    async publish(
      post,
      account,
      media: MediaFile[],
      options,
      context: PublishContext,
    ): Promise<PublishResult> {
      const token = tokenOf(account);
      const publicationId = publicationOf(account);
      const { title, body } = longFormParts(post.message, options.title);
      const draft = options.draft ?? false;
      const key = context.idempotencyKey;
      const since = context.resumed?.since.getTime() ?? unclear.get(key);
      if (since !== undefined) {
        const found = await findRecent(token, publicationId, title, draft, since, context.signal);
        if (found) {
          unclear.delete(key);
          return found;
        }
      }
      const [cover, ...inline] = media;
      const input = {
        title,
        ...(options.subtitle ? { subtitle: options.subtitle } : {}),
        publicationId,
        contentMarkdown: appendBlock(
          body,
          imagesMarkdown(inline.map((file) => ({ url: file.url, alt: file.altText }))),
        ),
        ...(options.tags?.length ? { tags: options.tags.map(hashnodeTag) } : {}),
        ...(cover ? { coverImageOptions: { coverImageURL: cover.url } } : {}),
        ...(options.canonicalUrl ? { originalArticleURL: options.canonicalUrl } : {}),
      };
      let saved: Found | undefined;
      try {
        if (draft) {
          const data = await hashnodeQuery<{ createDraft?: { draft?: Found } }>(config.apiUrl, token, {
            query: draftMutation,
            variables: { input },
            operation: 'post',
            signal: context.signal,
          });
          saved = data.createDraft?.draft;
        } else {
          const data = await hashnodeQuery<{ publishPost?: { post?: Found } }>(config.apiUrl, token, {
            query: publishMutation,
            variables: { input },
            operation: 'post',
            signal: context.signal,
          });
          saved = data.publishPost?.post;
        }
      } catch (error) {
        if (unclearOutcome(error)) unclear.set(key, since ?? Date.now() - 1000);
        throw error;
      }
      unclear.delete(key);
      if (typeof saved?.id !== 'string')
        throw new PlatformError('platform_unavailable', 'Hashnode answered the post without an id');
      return { platformPostId: saved.id, ...httpUrl(saved.url) };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = tokenOf(account);
      const data = await hashnodeQuery<{ me?: Me | null }>(config.apiUrl, token, {
        query: meQuery,
        operation: 'account',
        signal: context?.signal,
      });
      const me = data.me;
      if (!me || typeof me.id !== 'string')
        throw new PlatformError('platform_unavailable', 'Hashnode answered without the token’s user');
      const publications = (me.publications?.edges ?? [])
        .map((edge) => edge.node)
        .filter(
          (node): node is { id: string; title?: unknown; url?: unknown } => typeof node?.id === 'string',
        );
      const wanted = account.platformAccountId
        .trim()
        .replace(/^https?:\/\//, '')
        .replace(/\/+$/, '')
        .toLowerCase();
      const publication = wanted
        ? publications.find(
            (p) =>
              p.id.toLowerCase() === wanted ||
              (typeof p.url === 'string' &&
                p.url
                  .replace(/^https?:\/\//, '')
                  .replace(/\/+$/, '')
                  .toLowerCase() === wanted),
          )
        : publications[0];
      const named =
        publication ??
        (/^[a-f0-9]{24}$/i.test(wanted) ? await publicationById(token, wanted, context?.signal) : undefined);
      if (!named) {
        throw new PlatformError(
          'target_unreachable',
          wanted
            ? 'This token’s user is no member of that Hashnode publication'
            : 'This token’s user has no Hashnode publication',
          { retryable: false },
        );
      }
      const title = typeof named.title === 'string' ? named.title.trim().slice(0, 100) : '';
      const avatar = me.profilePicture;
      return {
        name: title || (typeof me.name === 'string' && me.name) || named.id,
        ...(typeof me.username === 'string' ? { username: me.username } : {}),
        platformAccountId: named.id,
        ...(typeof avatar === 'string' && /^https?:\/\/\S{1,2000}$/.test(avatar)
          ? { avatarUrl: avatar }
          : {}),
      };
    },
  };
}
