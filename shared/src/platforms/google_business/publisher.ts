import { createHash } from 'node:crypto';
import { PlatformError } from '../../errors.ts';
import { GoogleAccessToken } from '../google-oauth.ts';
import type { AccountProfile, PlatformAccount, PublishContext, Publisher, PublishResult } from '../types.ts';
import { googleBusinessCall } from './client.ts';
import type { GoogleBusinessConfig } from './config.ts';
import { localPostBody } from './local-post.ts';
import { googleBusinessManifest } from './manifest.ts';
import {
  type GoogleBusinessCredentials,
  type GoogleBusinessOptions,
  googleBusinessCredentialsSchema,
  googleBusinessOptionsSchema,
} from './options.ts';
import { locationPattern, validateGoogleBusinessPost } from './validate.ts';

interface LocalPost {
  name?: string;
  searchUrl?: string;
  state?: string;
  summary?: string;
  topicType?: string;
  createTime?: string;
}

type CallContext = Pick<PublishContext, 'signal' | 'onCredentialsRefreshed'> & {
  logger?: PublishContext['logger'];
};

export function createGoogleBusinessPublisher(
  config: GoogleBusinessConfig,
): Publisher<GoogleBusinessOptions> {
  function tokenFor(account: PlatformAccount, context: CallContext | undefined): GoogleAccessToken {
    const parsed = googleBusinessCredentialsSchema.safeParse(account.credentials);
    if (!parsed.success)
      throw new PlatformError(
        'credentials_invalid',
        'Google Business Profile credentials need refreshToken, clientId and clientSecret',
      );
    return new GoogleAccessToken({
      tokenUrl: config.tokenUrl,
      credentials: parsed.data as GoogleBusinessCredentials,
      signal: context?.signal,
      onRefreshed: context?.onCredentialsRefreshed,
      logger: context?.logger,
    });
  }

  function location(account: PlatformAccount): string {
    if (!locationPattern.test(account.platformAccountId))
      throw new PlatformError(
        'target_unreachable',
        'A Google Business Profile account id is accounts/{a}/locations/{l}',
        {
          retryable: false,
        },
      );
    return account.platformAccountId;
  }

  /** A post of the earlier attempt: same summary and type, created since it began. */
  async function findEarlier(
    token: GoogleAccessToken,
    name: string,
    body: Record<string, unknown>,
    since: Date,
    signal: AbortSignal,
  ): Promise<PublishResult | undefined> {
    const url = new URL(`${config.apiUrl}/v4/${name}/localPosts`);
    url.searchParams.set('pageSize', '20');
    const list = await googleBusinessCall<{ localPosts?: LocalPost[] }>(
      token,
      url,
      { signal },
      'the post lookup',
    );
    const post = (list?.localPosts ?? []).find(
      (p) =>
        (p.summary ?? '') === ((body.summary as string | undefined) ?? '') &&
        p.topicType === body.topicType &&
        Date.parse(p.createTime ?? '') >= since.getTime() - 60_000,
    );
    return post?.name
      ? { platformPostId: post.name, ...(post.searchUrl ? { url: post.searchUrl } : {}) }
      : undefined;
  }

  return {
    id: googleBusinessManifest.id,
    displayName: googleBusinessManifest.name,
    optionsSchema: googleBusinessOptionsSchema,
    credentialsSchema: googleBusinessCredentialsSchema,
    concurrency: 4,
    // The locations of one login share its token and quota.
    credentialConcurrency: 2,
    concurrencyKey: (account) => {
      const { refreshToken } = account.credentials;
      return typeof refreshToken === 'string'
        ? createHash('sha256').update(refreshToken).digest('base64url')
        : undefined;
    },
    // No idempotency key: a lost answer is completed by finding the post among the location's latest.
    dedupe: 'lookup',

    async validate(post, account, media, options) {
      return validateGoogleBusinessPost(post, account, media, options, config.timeZone);
    },

    async publish(post, account, media, options, context): Promise<PublishResult> {
      const name = location(account);
      const token = tokenFor(account, context);
      const body = localPostBody(post.message, media[0], options, config.timeZone);
      if (context.resumed) {
        const found = await findEarlier(token, name, body, context.resumed.since, context.signal).catch(
          (error: unknown) => {
            // No list to search is no earlier post found; anything else may hide one.
            if (error instanceof PlatformError && (error.status === 404 || error.status === 405))
              return undefined;
            throw error;
          },
        );
        if (found) return found;
      }
      const created = await googleBusinessCall<LocalPost>(
        token,
        `${config.apiUrl}/v4/${name}/localPosts`,
        { json: body, signal: context.signal },
        'the post',
      );
      if (!created?.name) throw new PlatformError('internal', 'Google created the post but answered no name');
      if (created.state === 'REJECTED')
        throw new PlatformError('content_rejected', 'Google rejected the post under its content policies', {
          retryable: false,
        });
      return { platformPostId: created.name, ...(created.searchUrl ? { url: created.searchUrl } : {}) };
    },

    async verifyCredentials(account, context): Promise<AccountProfile> {
      const token = tokenFor(account, context);
      if (!account.platformAccountId) {
        await googleBusinessCall(
          token,
          `${config.accountsUrl}/v1/accounts?pageSize=1`,
          { signal: context?.signal },
          'the account lookup',
        );
        return { name: 'Google Business Profile' };
      }
      const locationId = location(account).replace(/^accounts\/[^/]+\//, '');
      type Info = { title?: string; locationName?: string };
      const info = await googleBusinessCall<Info>(
        token,
        `${config.informationUrl}/v1/${locationId}?readMask=name,title`,
        { signal: context?.signal },
        'the location lookup',
      ).catch((error: unknown) => {
        // A v4-only service: the location as v4 answers it (`locationName`).
        if (!(error instanceof PlatformError && (error.status === 404 || error.status === 405))) throw error;
        return googleBusinessCall<Info>(
          token,
          `${config.apiUrl}/v4/${account.platformAccountId}`,
          { signal: context?.signal },
          'the location lookup',
        );
      });
      return {
        name: info?.title || info?.locationName || account.platformAccountId,
        platformAccountId: account.platformAccountId,
      };
    },
  };
}
