import { defineApiRoutes } from '#server/http/route.ts';
import { json } from './common.ts';

export const apiDocsRoutes = defineApiRoutes({
  getOpenApi: {
    method: 'get',
    path: '/openapi.json',
    auth: 'public',
    operationId: 'getOpenApi',
    summary: 'This OpenAPI description',
    description: 'An interactive rendering is served at `/docs`.',
    tags: ['Service'],
    responses: { 200: { description: 'OpenAPI 3.1 document.', content: { [json]: { type: 'object' } } } },
  },
  getDocs: {
    method: 'get',
    path: '/docs',
    auth: 'public',
    operationId: 'getDocs',
    summary: 'Interactive API reference (Scalar) rendering /openapi.json',
    tags: ['Service'],
    responses: { 200: { description: 'HTML page.', content: { 'text/html': { type: 'string' } } } },
  },
  getDocsScript: {
    method: 'get',
    path: '/docs/scalar.js',
    auth: 'public',
    undocumented: true,
    operationId: 'getDocsScript',
    summary: 'The Scalar bundle the docs page loads',
    responses: { 200: { description: 'JavaScript.' } },
  },
});
