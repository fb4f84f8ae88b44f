import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { Feed, FeedList, FeedPatch, FeedPollResult, FeedRequest } from './schema.ts';

const feedAnswer = (status: 200 | 201, description: string) => ({
  [status]: { description, content: { [json]: Feed } },
});

export const feedsRoutes = defineApiRoutes({
  listFeeds: {
    method: 'get',
    path: '/api/v1/feeds',
    auth: 'caller',
    permission: 'read',
    operationId: 'listFeeds',
    summary: 'Your RSS/Atom feeds, oldest first',
    responses: {
      200: { description: 'The feeds.', content: { [json]: FeedList } },
      ...problemResponses({ ...unauthorized }),
    },
  },
  createFeed: {
    method: 'post',
    path: '/api/v1/feeds',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'createFeed',
    summary: 'Turn a feed’s new items into posts to a group of accounts',
    description:
      'The feed is polled once at creation: the items it already holds are marked seen and never posted (no flood), and the answer shows that poll’s outcome (`lastStatus: primed`, or `failed` with `lastError`; the feed is kept and retried). Afterwards it is polled every `intervalMinutes` with a conditional GET (`If-None-Match` / `If-Modified-Since` from the last answer), through the SSRF-safe fetch. Items are deduplicated by guid / id, else link; each new item becomes one post from `template`, at most 10 per poll (more new items at once are marked seen without a post and reported in `lastError`).',
    requestBody: { content: { [json]: FeedRequest } },
    responses: {
      ...feedAnswer(201, 'The feed, after its first poll.'),
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'malformed body, not an http(s) URL, interval out of 5–1440',
        validation_failed:
          'an account that is not yours (`account_not_found`); a `url` the SSRF rules refuse (`url_not_allowed`: a private, loopback or metadata address, plain http or another port on a public host, unless `ALLOW_PRIVATE_HOSTS` lists it). A name that does not resolve now is accepted: every poll checks it again',
      }),
    },
  },
  getFeed: {
    method: 'get',
    path: '/api/v1/feeds/{id}',
    auth: 'caller',
    permission: 'read',
    operationId: 'getFeed',
    summary: 'One feed with its last poll',
    parameters: [idParam('feed')],
    responses: { ...feedAnswer(200, 'The feed.'), ...problemResponses({ ...unauthorized, ...notFound }) },
  },
  updateFeed: {
    method: 'patch',
    path: '/api/v1/feeds/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'updateFeed',
    summary: 'Change a feed (a new URL is primed again: its existing items are not posted)',
    parameters: [idParam('feed')],
    requestBody: { content: { [json]: FeedPatch } },
    responses: {
      ...feedAnswer(200, 'The feed.'),
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: 'malformed body',
        validation_failed:
          'an account that is not yours; a new `url` the SSRF rules refuse (`url_not_allowed`)',
      }),
    },
  },
  deleteFeed: {
    method: 'delete',
    path: '/api/v1/feeds/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'deleteFeed',
    summary: 'Delete a feed (posts it created stay)',
    parameters: [idParam('feed')],
    responses: { 204: { description: 'Deleted.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  },
  pollFeed: {
    method: 'post',
    path: '/api/v1/feeds/{id}/poll',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'pollFeed',
    summary: 'Poll a feed now',
    description: '`busy` when another instance or request is polling it at this moment (nothing done).',
    parameters: [idParam('feed')],
    responses: {
      200: { description: 'What the poll found.', content: { [json]: FeedPollResult } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
});
