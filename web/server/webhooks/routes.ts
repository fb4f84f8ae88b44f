import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { webhookDeliveryStatuses } from '#server/db/schema.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import {
  CreateWebhookRequest,
  DeliveryPage,
  ListDeliveriesQuery,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookList,
  WebhookWithSecret,
} from './schema.ts';

const signing =
  'Deliveries are signed as Standard Webhooks: headers `webhook-id` (the same for every attempt of one message), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; during a rotation two, space-separated). The body is `{ type, timestamp, data }`; post events carry the Post, account events the Account. A delivery succeeds on a 2xx within 15 s; otherwise it is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed. An endpoint whose every attempt fails for 24 hours is turned off (`enabled: false`, `disabledReason`) and its owner e-mailed when mail is configured.';

const urlRefused =
  'the URL is not https on port 443 to a public address (error code `url_not_allowed`), cannot be resolved (`host_not_found`), or is malformed (`invalid_url`)';

const deliveryIdParam = {
  name: 'deliveryId',
  in: 'path' as const,
  description: 'The delivery id.',
  schema: z.string(),
};

export const webhooksRoutes = defineApiRoutes({
  listWebhooks: {
    method: 'get',
    path: '/api/v1/webhooks',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints (never their secrets)',
    responses: {
      200: { description: 'Endpoints, newest first.', content: { [json]: WebhookList } },
      ...problemResponses(unauthorized),
    },
  },
  createWebhook: {
    method: 'post',
    path: '/api/v1/webhooks',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint; its signing secret is shown once',
    description: signing,
    requestBody: { content: { [json]: CreateWebhookRequest } },
    responses: {
      201: { description: 'Created, with its `whsec_…` secret.', content: { [json]: WebhookWithSecret } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'missing or malformed url, events or description',
        validation_failed: urlRefused,
      }),
    },
  },
  getWebhook: {
    method: 'get',
    path: '/api/v1/webhooks/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'getWebhook',
    summary: 'One webhook endpoint (never its secret)',
    parameters: [idParam('webhook')],
    responses: {
      200: { description: 'The endpoint.', content: { [json]: Webhook } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  updateWebhook: {
    method: 'patch',
    path: '/api/v1/webhooks/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'updateWebhook',
    summary: 'Change an endpoint’s URL, events or description, or turn it on or off',
    description:
      '`enabled: true` turns on an endpoint that was disabled (after a day of failures, or by its owner): its failure count starts over and deliveries that waited go out. While off, no new deliveries are recorded for it.',
    parameters: [idParam('webhook')],
    requestBody: { content: { [json]: UpdateWebhookRequest } },
    responses: {
      200: { description: 'The endpoint.', content: { [json]: Webhook } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: 'a field of the wrong type',
        validation_failed: urlRefused,
      }),
    },
  },
  deleteWebhook: {
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'deleteWebhook',
    summary: 'Delete an endpoint and its delivery log',
    parameters: [idParam('webhook')],
    responses: { 204: { description: 'Deleted.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  },
  rotateWebhookSecret: {
    method: 'post',
    path: '/api/v1/webhooks/{id}/rotate-secret',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
    description:
      'The new secret is shown once in this answer. For 24 hours every delivery carries two signatures, space-separated in `webhook-signature` (new first), so a receiver verifies with either secret; `previousSecretExpiresAt` says when the old one stops. Rotating again within the overlap replaces the old secret with the one just retired.',
    parameters: [idParam('webhook')],
    responses: {
      200: { description: 'The endpoint with its new secret.', content: { [json]: WebhookWithSecret } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  testWebhook: {
    method: 'post',
    path: '/api/v1/webhooks/{id}/test',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'testWebhook',
    summary: 'Send a `webhook.test` event now and answer with the delivery after its first attempt',
    description:
      'Sent even to a turned-off endpoint (to check it before turning it on). The answer waits for the first attempt (15 s at most): `status` is `delivered`, or `pending` with the attempt’s error and the retry time. A test that failed is retried like any delivery, except to a turned-off endpoint: there it is `failed` after its one attempt (no stale test once the endpoint is turned on).',
    parameters: [idParam('webhook')],
    responses: {
      200: {
        description: 'The test delivery after its first attempt.',
        content: { [json]: WebhookDelivery },
      },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  listWebhookDeliveries: {
    method: 'get',
    path: '/api/v1/webhooks/{id}/deliveries',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log of an endpoint, newest first, each with its attempts',
    parameters: [
      idParam('webhook'),
      { name: 'status', in: 'query', schema: z.enum(webhookDeliveryStatuses) },
      {
        name: 'limit',
        in: 'query',
        description: '1–200, default 50.',
        schema: ListDeliveriesQuery.shape.limit,
      },
      {
        name: 'cursor',
        in: 'query',
        description: '`nextCursor` of the previous page.',
        schema: ListDeliveriesQuery.shape.cursor,
      },
    ],
    responses: {
      200: { description: 'Deliveries.', content: { [json]: DeliveryPage } },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_request: 'bad status, limit or cursor' }),
    },
  },
  redeliverWebhookDelivery: {
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send a delivery again (same `webhook-id` and body)',
    description:
      'Queues the delivery for an attempt now, whatever its status; if that fails, the retry schedule starts over. Receivers that deduplicate on `webhook-id` see it as the same message. The answer is the queued delivery; its attempts appear in the log.',
    parameters: [idParam('webhook'), deliveryIdParam],
    responses: {
      202: { description: 'Queued.', content: { [json]: WebhookDelivery } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_status:
          'the delivery is being sent at this moment, or the endpoint is turned off (turn it on with `enabled: true` first)',
      }),
    },
  },
});
