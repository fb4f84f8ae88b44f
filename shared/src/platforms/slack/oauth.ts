import { PlatformError } from '../../errors.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import { SlackApi } from './api.ts';
import type { SlackConfig } from './config.ts';
import type { SlackCredentials } from './options.ts';
import { requestSlackAccess, SlackRenewals, SlackToken, tokensOf } from './token.ts';

/**
 * Bot scopes asked at install: post, share files, read a shared file's message (its link and
 * thread), and list the public and private channels the app is a member of.
 */
export const slackBotScopes = ['chat:write', 'files:write', 'files:read', 'channels:read', 'groups:read'];

interface Conversation {
  id?: string;
  name?: string;
  is_private?: boolean;
  is_archived?: boolean;
  is_member?: boolean;
}

/** Pages of conversations.list read at most (200 channels each). */
const maxPages = 50;

/**
 * "Add to Slack": an OAuth v2 install with bot scopes; the picker offers every channel the app
 * is a member of. All channels of one install share its bot token (`grantKey`: the workspace).
 */
export function createSlackConnector(config: SlackConfig): OAuthConnector {
  return {
    platform: 'slack',
    configured: Boolean(config.clientId && config.clientSecret),
    pkce: false,

    authorizeUrl({ state, redirectUri }) {
      if (!config.clientId) throw new Error('SLACK_CLIENT_ID is not set');
      const url = new URL(config.authorizeUrl);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('scope', slackBotScopes.join(','));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri, signal }): Promise<ConnectableAccount[]> {
      const access = await requestSlackAccess(config, { code, redirect_uri: redirectUri }, signal);
      if (access.token_type !== undefined && access.token_type !== 'bot')
        throw new PlatformError('credentials_invalid', 'Slack granted no bot token');
      const teamId = access.team?.id ?? access.enterprise?.id;
      const teamName = access.team?.name ?? access.enterprise?.name;
      const credentials = { ...tokensOf(access), ...(teamId ? { teamId } : {}) } as SlackCredentials;
      const api = new SlackApi(
        config.apiUrl,
        new SlackToken({ credentials, config, renewals: new SlackRenewals(), signal }),
        signal,
      );
      // A channel object says whether the app is in it (`is_member`); where a field is missing the
      // channel is offered, and publishing says if the app must be invited.
      const channels = (await listChannels(api)).filter(
        (c) => c.id && c.is_member !== false && c.is_archived !== true,
      );
      if (channels.length === 0) {
        throw new PlatformError(
          'target_unreachable',
          `The app is in no channel${teamName ? ` of ${teamName}` : ''} yet: invite it to a channel (/invite @app-name), then connect again`,
        );
      }
      return channels.map((channel) => ({
        platformAccountId: channel.id!,
        credentials,
        profile: {
          name: `#${channel.name ?? channel.id}`,
          ...(teamName ? { username: teamName } : {}),
          platformAccountId: channel.id!,
        },
        kind: channel.is_private ? 'Private channel' : 'Channel',
        ...(teamId ? { grantKey: teamId } : {}),
      }));
    },
  };
}

async function listChannels(api: SlackApi): Promise<Conversation[]> {
  const channels: Conversation[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await api.call<{
      channels?: Conversation[];
      response_metadata?: { next_cursor?: string };
    }>(
      'conversations.list',
      {
        types: 'public_channel,private_channel',
        exclude_archived: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      },
      'lookup',
      { read: true },
    );
    channels.push(...(answer.channels ?? []));
    cursor = answer.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return channels;
}
