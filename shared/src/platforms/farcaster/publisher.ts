import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import type { MediaFile, MediaInfo } from '../../media/media-file.ts';
import { accountIdIssue, farcasterFid } from '../account-id.ts';
import type {
  AccountProfile,
  PlatformAccount,
  PostContent,
  PublishContext,
  Publisher,
  PublishResult,
  ValidationOutcome,
} from '../types.ts';
import { neynarFetch } from './api.ts';
import type { FarcasterConfig } from './config.ts';
import { farcasterManifest } from './manifest.ts';
import {
  type FarcasterCredentials,
  type FarcasterOptions,
  farcasterCredentialsSchema,
  farcasterOptionsSchema,
} from './options.ts';
import { validateFarcasterCast } from './validate.ts';

interface SignerAnswer {
  signer_uuid?: string;
  status?: string;
  fid?: number;
}

interface UserAnswer {
  users?: { fid?: number; username?: string; display_name?: string; pfp_url?: string }[];
}

interface CastAnswer {
  success?: boolean;
  cast?: { hash?: string; author?: { fid?: number; username?: string } };
}

/**
 * Neynar's `idem` (16 characters) for one publish: derived from the target's publish intent (its
 * idempotency key), so every resend of it carries the same one and Neynar answers the first cast
 * instead of casting twice.
 */
export function castIdem(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 16);
}

/** Casts to Farcaster through Neynar with the account's managed signer. */
export class FarcasterPublisher implements Publisher<FarcasterOptions> {
  readonly id = farcasterManifest.id;
  readonly displayName = farcasterManifest.name;
  readonly optionsSchema = farcasterOptionsSchema;
  readonly credentialsSchema = farcasterCredentialsSchema;
  readonly concurrency: number;
  /** Neynar deduplicates casts by `idem`: a resend of the same intent answers the first cast. */
  readonly dedupe = 'idempotent-resend' as const;
  readonly #config: FarcasterConfig;

  constructor(config: FarcasterConfig) {
    this.#config = config;
    this.concurrency = config.concurrency;
  }

  async validate(
    post: PostContent,
    account: PlatformAccount,
    media: MediaInfo[],
    options: FarcasterOptions,
  ): Promise<ValidationOutcome> {
    const outcome = validateFarcasterCast(post, media, options);
    const id = accountIdIssue(account, farcasterFid, 'Farcaster', "the account's fid (a positive number)");
    if (id) outcome.errors.push(id);
    if (!farcasterCredentialsSchema.safeParse(account.credentials).success)
      outcome.errors.push({
        code: 'credentials_invalid',
        message: 'Farcaster credentials need the signerUuid of a Neynar managed signer',
        path: 'credentials',
      });
    // Every Neynar call needs the operator's key: without it the cast cannot go, and finding that
    // out at publish would be after the post's other targets went out.
    if (!this.#config.apiKey)
      outcome.errors.push({
        code: 'platform_not_configured',
        message: 'Farcaster is not set up on this server: the operator has to set NEYNAR_API_KEY',
      });
    return outcome;
  }

  async publish(
    post: PostContent,
    account: PlatformAccount,
    media: MediaFile[],
    options: FarcasterOptions,
    context: PublishContext,
  ): Promise<PublishResult> {
    const { signerUuid } = credentialsOf(account);
    const answer = await neynarFetch<CastAnswer>(this.#config, '/v2/farcaster/cast', {
      method: 'POST',
      what: 'the cast',
      signal: context.signal,
      json: {
        signer_uuid: signerUuid,
        text: post.message,
        ...(media.length > 0 ? { embeds: media.map((file) => ({ url: file.url })) } : {}),
        ...(options.channelId ? { channel_id: options.channelId } : {}),
        idem: castIdem(context.idempotencyKey),
      },
    });
    const hash = answer.cast?.hash;
    if (typeof hash !== 'string' || !/^[\w-]{1,200}$/.test(hash))
      throw new PlatformError('platform_unavailable', 'Neynar answered the cast without its hash');
    const username = answer.cast?.author?.username ?? account.username?.replace(/^@/, '');
    return {
      platformPostId: hash,
      url:
        username && /^[\w.-]{1,64}$/.test(username)
          ? `https://farcaster.xyz/${username}/${hash.startsWith('0x') ? hash.slice(0, 10) : hash}`
          : `https://farcaster.xyz/~/conversations/${hash}`,
    };
  }

  async verifyCredentials(
    account: PlatformAccount,
    context?: Pick<PublishContext, 'signal'>,
  ): Promise<AccountProfile> {
    const { signerUuid } = credentialsOf(account);
    const signal = context?.signal;
    const signer = await neynarFetch<SignerAnswer>(
      this.#config,
      `/v2/farcaster/signer?signer_uuid=${encodeURIComponent(signerUuid)}`,
      { method: 'GET', what: 'the signer lookup', signal },
    );
    if (signer.status !== 'approved' || typeof signer.fid !== 'number')
      throw new PlatformError(
        'needs_reconnect',
        `The Neynar signer is ${signer.status === 'revoked' ? 'revoked' : 'not approved yet'}: approve it in the Farcaster app (or create a new one) and connect again`,
      );
    const fid = String(signer.fid);
    // The profile only dresses the account up: a failed lookup leaves the fid as its name.
    const users = await neynarFetch<UserAnswer>(this.#config, `/v2/farcaster/user/bulk?fids=${fid}`, {
      method: 'GET',
      what: 'the profile lookup',
      signal,
    })
      .then((answer) => answer.users)
      .catch(() => undefined);
    const user = users?.find((u) => u.fid === signer.fid);
    return {
      name: user?.display_name?.trim().slice(0, 100) || user?.username || `fid ${fid}`,
      ...(user?.username ? { username: `@${user.username}` } : {}),
      ...(user?.pfp_url && /^https:\/\/\S{1,2000}$/.test(user.pfp_url) ? { avatarUrl: user.pfp_url } : {}),
      platformAccountId: fid,
    };
  }
}

function credentialsOf(account: PlatformAccount): FarcasterCredentials {
  const parsed = farcasterCredentialsSchema.safeParse(account.credentials);
  if (!parsed.success)
    throw new PlatformError(
      'credentials_invalid',
      'Farcaster credentials need the signerUuid of a Neynar managed signer',
    );
  return parsed.data;
}
