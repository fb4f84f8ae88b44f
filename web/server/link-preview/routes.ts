import { problemResponses } from '@postwave/shared/openapi/index';
import { json, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { LinkPreview, LinkPreviewRequest } from './schema.ts';

export const linkPreviewRoutes = defineApiRoutes({
  linkPreview: {
    method: 'post',
    path: '/api/v1/link-preview',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'linkPreview',
    summary: 'The link card of a page (Open Graph / Twitter Card tags), as the composer previews it',
    description:
      'Fetches the page through the SSRF-safe fetch (loopback, private and metadata addresses are refused unless `ALLOW_PRIVATE_HOSTS` admits the host; redirects are re-checked), reads at most 512 KiB of HTML within 5 seconds, and answers the card fields it finds (`og:*`, then `twitter:*`, then `<title>` and `meta description`). Fields the page lacks are absent. Results are cached per user for 10 minutes (refusals for 1 minute); each user may ask 30 times a minute (429 with `Retry-After` beyond).',
    requestBody: { content: { [json]: LinkPreviewRequest } },
    responses: {
      200: { description: 'The card.', content: { [json]: LinkPreview } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'malformed body',
        validation_failed:
          'no card: `errors[0].code` says why (`invalid_url`, `url_not_allowed` for private or non-https hosts, `host_not_found`, `fetch_failed`, `not_html`, `timeout`)',
        rate_limited: 'more than 30 previews a minute',
      }),
    },
  },
});
