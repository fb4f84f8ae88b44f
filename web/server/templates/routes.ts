import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { CreateTemplateRequest, Template, TemplateList, UpdateTemplateRequest } from './schema.ts';

/** Contract B: a body of the wrong shape is 400, a well-typed one breaking a rule 422 (`schemaProblem`). */
const wrongShape =
  'not JSON, or a field is missing or of the wrong type (`errors[].path` names it: `name`, `message`, `accountIds`, `media.0.key`, …)';

const invalidContent =
  'a well-typed value breaks a rule (`errors[].path` names it: an empty `name`, a `message` over 100,000 characters, …), an account is not the workspace’s (`account_not_found`), an override names an account the template does not go to (`override_unknown_account`), or a media key is unknown (`media_not_found`)';

const about =
  'A template is a post’s content under a name: `message`, `media`, `accountIds`, `accountOptions`, `overrides` and `thread`, shaped and checked like a post’s (platform rules apply when a post is made from it). `POST /api/v1/posts` with `templateId` starts from it. Every member reads templates; owners and admins change them.';

export const templatesRoutes = defineApiRoutes({
  listTemplates: {
    method: 'get',
    path: '/api/v1/templates',
    auth: 'caller',
    permission: 'read',
    operationId: 'listTemplates',
    summary: 'The workspace’s post templates, by name',
    description: about,
    responses: {
      200: { description: 'Templates.', content: { [json]: TemplateList } },
      ...problemResponses(unauthorized),
    },
  },
  createTemplate: {
    method: 'post',
    path: '/api/v1/templates',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'createTemplate',
    summary: 'Save post content as a template',
    description: about,
    requestBody: { content: { [json]: CreateTemplateRequest } },
    responses: {
      201: { description: 'Created.', content: { [json]: Template } },
      ...problemResponses({
        ...unauthorized,
        invalid_request: wrongShape,
        validation_failed: invalidContent,
      }),
    },
  },
  getTemplate: {
    method: 'get',
    path: '/api/v1/templates/{id}',
    auth: 'caller',
    permission: 'read',
    operationId: 'getTemplate',
    summary: 'One template',
    parameters: [idParam('template')],
    responses: {
      200: { description: 'The template.', content: { [json]: Template } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  updateTemplate: {
    method: 'patch',
    path: '/api/v1/templates/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'updateTemplate',
    summary: 'Change a template (posts made from it do not change)',
    parameters: [idParam('template')],
    requestBody: { content: { [json]: UpdateTemplateRequest } },
    responses: {
      200: { description: 'The template.', content: { [json]: Template } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: wrongShape,
        validation_failed: invalidContent,
      }),
    },
  },
  deleteTemplate: {
    method: 'delete',
    path: '/api/v1/templates/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'deleteTemplate',
    summary: 'Delete a template; posts made from it keep their content',
    parameters: [idParam('template')],
    responses: { 204: { description: 'Deleted.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  },
});
