import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
  addRoutes,
  defineRoutes,
  docsPageHtml,
  expressPath,
  OpenApiDocument,
  routeKey,
  scalarBundle,
} from '../../src/openapi/index.ts';

const routes = defineRoutes({
  listThings: {
    method: 'get',
    path: '/things/{id}',
    auth: 'key',
    operationId: 'listThings',
    summary: 'Things',
    responses: { 200: { description: 'OK', content: { 'application/json': z.object({ n: z.number() }) } } },
  },
  health: {
    method: 'get',
    path: '/health',
    auth: 'public',
    operationId: 'health',
    summary: 'Health',
    responses: { 200: { description: 'OK' } },
  },
  preflight: {
    method: 'options',
    path: '/things/{id}',
    auth: 'public',
    undocumented: true,
    operationId: 'preflight',
    summary: 'CORS',
    responses: { 204: { description: 'OK' } },
  },
});

describe('route registry helpers', () => {
  it('documents every entry but the undocumented, with security from its auth name', () => {
    const doc = addRoutes(
      new OpenApiDocument({ info: { title: 't', version: '1' }, security: [{ key: [] }] }),
      Object.values(routes),
      (auth) => (auth === 'public' ? [] : undefined),
    ).toJSON() as { paths: Record<string, Record<string, { security?: unknown; auth?: unknown }>> };
    assert.deepEqual(Object.keys(doc.paths['/things/{id}']!), ['get']);
    assert.equal(doc.paths['/things/{id}']!.get!.security, undefined);
    assert.equal(doc.paths['/things/{id}']!.get!.auth, undefined);
    assert.deepEqual(doc.paths['/health']!.get!.security, []);
  });

  it('turns templates into Express paths and keys', () => {
    assert.equal(expressPath('/media/{key}/parts/{n}'), '/media/:key/parts/:n');
    assert.equal(routeKey(routes.listThings), 'GET /things/{id}');
  });

  it('renders a docs page that loads Scalar from this server only', () => {
    const html = docsPageHtml('A <b> API');
    assert.match(html, /<title>A &lt;b> API<\/title>/);
    assert.match(html, /<script src="\/docs\/scalar.js"><\/script>/);
    assert.doesNotMatch(html, /https?:\/\//);
    assert.ok(scalarBundle().byteLength > 100_000);
  });

  it('configures Scalar without the hosted-service buttons a self-hosted server cannot serve', () => {
    const html = docsPageHtml('API');
    const attribute = /data-configuration="([^"]*)"/.exec(html)?.[1] ?? '';
    const configuration = JSON.parse(attribute.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    // "Ask AI" (Scalar's agent), "Generate MCP" (its MCP service), "Deploy"/"Share" (the developer toolbar).
    assert.deepEqual(configuration.agent, { disabled: true });
    assert.deepEqual(configuration.mcp, { disabled: true });
    assert.equal(configuration.showDeveloperTools, 'never');
    assert.equal(configuration.hideClientButton, true);
  });
});
