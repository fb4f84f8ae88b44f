import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { AttemptMemory } from '../attempt-memory.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { vkCall } from './api.ts';
import type { VkConfig } from './config.ts';
import { vkManifest } from './manifest.ts';
import { type VkCredentials, type VkOptions, vkCredentialsSchema, vkOptionsSchema } from './options.ts';
import { uploadWallPhoto } from './photos.ts';
import { isOwnerId, validateVkPost } from './validate.ts';

interface VkUser {
  id: number;
  first_name?: string;
  last_name?: string;
  screen_name?: string;
  photo_100?: string;
}

interface VkGroup {
  id: number;
  name?: string;
  screen_name?: string;
  photo_100?: string;
  is_admin?: number;
}

/** `wall.post`'s `guid` for one publish: the same for every resend of it, so VK posts once. */
export function wallGuid(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
}

/** Posts to a VK user's or community's wall: photos through the wall upload server, then `wall.post`. */
export class VkPublisher implements Publisher<VkOptions> {
  readonly id = vkManifest.id;
  readonly displayName = vkManifest.name;
  readonly optionsSchema = vkOptionsSchema;
  readonly credentialsSchema = vkCredentialsSchema;
  readonly concurrency: number;
  /** `wall.post` takes a `guid`: a resend with the same one answers the post it already made. */
  readonly dedupe = 'idempotent-resend' as const;
  /** VK allows a user token 3 requests a second: one publish at a time per token. */
  readonly credentialConcurrency = 1;
  readonly #config: VkConfig;
  /** Photos an earlier attempt of the same publish already saved, so a retry does not upload them again. */
  readonly #attachments = new AttemptMemory<Map<string, string>>();

  constructor(config: VkConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  concurrencyKey(account: PlatformAccount): string | undefined {
    const parsed = vkCredentialsSchema.safeParse(account.credentials);
    return parsed.success
      ? `vk:${createHash('sha256').update(parsed.data.accessToken).digest('base64url').slice(0, 22)}`
      : undefined;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
  ): Promise<ValidationOutcome> {
    const outcome = validateVkPost(post, media);
    if (!vkCredentialsSchema.safeParse(account.credentials).success)
      outcome.errors.push({
        code: 'credentials_invalid',
        message: 'VK credentials need an accessToken',
        path: 'credentials',
      });
    if (!isOwnerId(account.platformAccountId))
      outcome.errors.push({
        code: 'target_unreachable',
        message: 'The VK account id is the wall owner: a user id, or -<community id> for a community',
      });
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    _options: VkOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const { accessToken } = credentialsOf(account);
    const ownerId = ownerOf(account);
    const saved = this.#attachments.get(context.idempotencyKey) ?? new Map<string, string>();
    this.#attachments.set(context.idempotencyKey, saved);
    const attachments: string[] = [];
    // In order: VK shows attachments in the order given.
    for (const file of media) {
      const known = saved.get(file.key);
      const attachment =
        known ?? (await uploadWallPhoto(this.#config, accessToken, ownerId, file, context.signal));
      saved.set(file.key, attachment);
      attachments.push(attachment);
    }
    const answer = await vkCall<{ post_id?: number }>(
      this.#config,
      accessToken,
      'wall.post',
      {
        owner_id: ownerId,
        message: post.message === '' ? undefined : post.message,
        attachments: attachments.length > 0 ? attachments.join(',') : undefined,
        from_group: ownerId < 0 ? 1 : undefined,
        guid: wallGuid(context.idempotencyKey),
      },
      'the wall post',
      context.signal,
    );
    if (typeof answer?.post_id !== 'number')
      throw new PlatformError('platform_unavailable', 'VK answered the wall post without its id');
    this.#attachments.delete(context.idempotencyKey);
    return { platformPostId: String(answer.post_id), url: `https://vk.com/wall${ownerId}_${answer.post_id}` };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal'>,
  ): Promise<AccountProfile> {
    const { accessToken } = credentialsOf(account);
    const signal = context?.signal;
    const wanted = account.platformAccountId;
    if (wanted !== '' && !isOwnerId(wanted))
      throw new PlatformError(
        'target_unreachable',
        'The VK wall is a user id, or -<community id> for a community (for example -123456)',
      );
    if (wanted.startsWith('-')) {
      const answer = await vkCall<{ groups?: VkGroup[] } | VkGroup[]>(
        this.#config,
        accessToken,
        'groups.getById',
        { group_id: wanted.slice(1), fields: 'is_admin,photo_100' },
        'the community lookup',
        signal,
      );
      const group = (Array.isArray(answer) ? answer : answer.groups)?.[0];
      if (!group || String(-group.id) !== wanted)
        throw new PlatformError('target_unreachable', `VK has no community ${wanted.slice(1)}`);
      // A user token's `groups.getById` says `is_admin`; when absent, wall.post judges.
      if (group.is_admin === 0)
        throw new PlatformError(
          'target_unreachable',
          'The token’s user does not administer this community: use a token of one of its administrators',
        );
      return {
        name: group.name?.slice(0, 100) || `Community ${group.id}`,
        ...(group.screen_name ? { username: group.screen_name } : {}),
        ...(httpsUrl(group.photo_100) ? { avatarUrl: group.photo_100 } : {}),
        platformAccountId: wanted,
      };
    }
    const users = await vkCall<VkUser[]>(
      this.#config,
      accessToken,
      'users.get',
      { fields: 'photo_100,screen_name' },
      'the account lookup',
      signal,
    );
    const user = users?.[0];
    if (typeof user?.id !== 'number')
      throw new PlatformError('platform_unavailable', 'VK answered without the user');
    if (wanted !== '' && wanted !== String(user.id))
      throw new PlatformError(
        'target_unreachable',
        'A VK user token posts to its own wall, or to a community it administers',
      );
    return {
      name: [user.first_name, user.last_name].filter(Boolean).join(' ').slice(0, 100) || `id${user.id}`,
      ...(user.screen_name ? { username: user.screen_name } : {}),
      ...(httpsUrl(user.photo_100) ? { avatarUrl: user.photo_100 } : {}),
      platformAccountId: String(user.id),
    };
  }
}

function credentialsOf(account: PlatformAccount): VkCredentials {
  const parsed = vkCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success) throw new PlatformError('credentials_invalid', 'VK credentials need an accessToken');
  return parsed.data;
}

function ownerOf(account: PlatformAccount): number {
  if (!isOwnerId(account.platformAccountId))
    throw new PlatformError('target_unreachable', 'The VK account id must be a user id or -<community id>', {
      retryable: false,
    });
  return Number(account.platformAccountId);
}

function httpsUrl(value: string | undefined): value is string {
  return typeof value === 'string' && /^https:\/\/\S{1,2000}$/.test(value);
}
