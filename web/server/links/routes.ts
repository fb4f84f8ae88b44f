import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { json, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { LinkSettings, UpdateLinkSettingsRequest } from './schema.ts';

const workspaceId = { name: 'id', in: 'path' as const, description: 'The workspace id.', schema: z.string() };
const notMember = { not_found: 'no such workspace, or the caller is not a member of it (the same answer)' };
const tags = ['Workspaces'];

/** Contract section I, "Links": a workspace's UTM parameters and URL shortener (docs/links.md). */
export const linksRoutes = defineApiRoutes({
  getLinkSettings: {
    method: 'get',
    path: '/api/v1/workspaces/{id}/links',
    auth: 'caller',
    permission: 'workspace.manage',
    workspaceParam: 'id',
    operationId: 'getLinkSettings',
    tags,
    summary: 'The workspace’s tracked links: UTM parameters and shortener (owners and admins)',
    description: 'The shortener’s API key is never answered: `hasApiKey` says whether one is stored.',
    parameters: [workspaceId],
    responses: {
      200: { description: 'The settings.', content: { [json]: LinkSettings } },
      ...problemResponses({
        ...unauthorized,
        ...notMember,
        forbidden: 'editors and below may not; `requiredRole` names the least role that may',
      }),
    },
  },
  updateLinkSettings: {
    method: 'put',
    path: '/api/v1/workspaces/{id}/links',
    auth: 'caller',
    permission: 'workspace.manage',
    workspaceParam: 'id',
    operationId: 'updateLinkSettings',
    tags,
    summary: 'Set the workspace’s UTM parameters and shortener (owners and admins)',
    description:
      'The shortener’s `apiUrl` is a user-chosen host (SSRF rules: a private, loopback or metadata address is refused unless the operator lists it in `ALLOW_PRIVATE_HOSTS`). The API key is write-only and encrypted at rest.',
    parameters: [workspaceId],
    requestBody: { content: { [json]: UpdateLinkSettingsRequest } },
    responses: {
      200: { description: 'The settings as saved.', content: { [json]: LinkSettings } },
      ...problemResponses({
        ...unauthorized,
        ...notMember,
        forbidden: 'editors and below may not; `requiredRole` names the least role that may',
        invalid_request: 'unknown field, bad provider, URL or domain',
        validation_failed:
          '`shortener.apiUrl` not allowed (private address) or missing, `shortener.apiKey` missing for a new shortener, provider or URL',
      }),
    },
  },
});
