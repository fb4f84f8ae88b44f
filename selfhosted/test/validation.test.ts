import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectProblem, startTestServer, type TestServer } from './helpers.ts';

type Body = Record<string, unknown> & {
  valid: boolean;
  results: unknown[];
  errors?: { path?: string; code: string; message: string }[];
};

const image = { key: 'img.png', url: 'https://cdn.example/img.png', contentType: 'image/png', size: 3 };

/** Contract B, "Validation": a malformed body is 400; an invalid post is still 200 with `valid: false`. */
describe('POST /api/v1/validation', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers a well-typed request that breaks a rule 200 valid:false, the issue in errors', async () => {
    const cases: [string, unknown, string, string?][] = [
      ['no accounts', { message: 'x', accountIds: [] }, 'accountIds'],
      [
        '101 accounts',
        { message: 'x', accountIds: Array.from({ length: 101 }, (_, i) => `a${i}`) },
        'accountIds',
      ],
      [
        'a text over 100,000 characters',
        { message: 'x'.repeat(100_001), accountIds: ['tg-main'] },
        'message',
      ],
      [
        '51 media',
        { message: 'x', accountIds: ['tg-main'], media: Array.from({ length: 51 }, () => image) },
        'media',
      ],
      [
        'a media key with ../',
        { message: 'x', accountIds: ['tg-main'], media: { ...image, key: '../etc/passwd' } },
        'media.key',
      ],
      [
        'an override for another account',
        { message: 'x', accountIds: ['tg-main'], overrides: { 'tg-other': { message: 'y' } } },
        'overrides.tg-other',
        'override_unknown_account',
      ],
      [
        'an unknown postingMode (posting answers it 422)',
        { message: 'x', accountIds: ['tg-main'], postingMode: 'bogus' },
        'postingMode',
        'invalid_posting_mode',
      ],
    ];
    for (const [name, json, path, code] of cases) {
      const response = await server.api('/api/v1/validation', { json });
      const body = (await response.json()) as Body;
      assert.equal(response.status, 200, `${name}: ${JSON.stringify(body).slice(0, 300)}`);
      assert.equal(body.valid, false, name);
      assert.deepEqual(body.results, [], name);
      assert.ok(body.errors?.length, name);
      assert.equal(body.errors[0]!.path, path, `${name}: ${JSON.stringify(body.errors)}`);
      if (code) assert.equal(body.errors[0]!.code, code, name);
      assert.equal(typeof body.errors[0]!.message, 'string');
    }
  });

  it('keeps errors out of a valid answer', async () => {
    // Every known mode validates, those this server does not publish included (posting says 501).
    for (const postingMode of [undefined, 'now', 'schedule', 'draft', 'queue']) {
      const response = await server.api('/api/v1/validation', {
        json: { message: 'hi', accountIds: ['tg-main'], postingMode },
      });
      const body = (await response.json()) as Body;
      assert.equal(response.status, 200);
      assert.equal(body.valid, true, String(postingMode));
      assert.equal('errors' in body, false);
    }
  });

  it('still answers malformed JSON and wrong types 400', async () => {
    const malformed = await server.api('/api/v1/validation', {
      method: 'POST',
      body: '{"message": ',
      headers: { 'content-type': 'application/json' },
    });
    await expectProblem(malformed, 400, 'invalid_request');
    await expectProblem(
      await server.api('/api/v1/validation', { json: { message: 'x', accountIds: [7] } }),
      400,
      'invalid_request',
    );
    await expectProblem(
      await server.api('/api/v1/validation', { json: { accountIds: ['tg-main'] } }),
      400,
      'invalid_request',
    );
  });

  it('documents no 422 for validation, and errors in ValidationResponse', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const validation = doc.paths['/api/v1/validation']!.post!;
    assert.equal(validation.responses['422'], undefined);
    assert.ok(validation.responses['400']);
    assert.ok(doc.components.schemas.ValidationResponse?.properties.errors);
    // Publishing keeps its 422.
    assert.ok(doc.paths['/api/v1/posts']!.post!.responses['422']);
  });
});

describe('JSON routes under another Content-Type', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers 415 unsupported_media_type naming application/json on every JSON-body route', async () => {
    const routes: [string, unknown][] = [
      ['/api/v1/validation', { message: 'x', accountIds: ['tg-main'] }],
      ['/api/v1/posts', { message: 'x', accountIds: ['tg-main'], postingMode: 'now' }],
      ['/api/v1/upload/presign', { filename: 'a.png', contentType: 'image/png', size: 10 }],
    ];
    for (const [path, json] of routes) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/json']) {
        const response = await server.api(path, {
          method: 'POST',
          body: JSON.stringify(json),
          headers: { 'content-type': type },
        });
        const body = await expectProblem(response, 415, 'unsupported_media_type');
        assert.match(String(body.detail), /application\/json/, `${path} ${type}`);
      }
      // No Content-Type at all: the same.
      const untyped = await server.api(path, { method: 'POST', body: new Blob([JSON.stringify(json)]) });
      await expectProblem(untyped, 415, 'unsupported_media_type');
    }
    assert.equal(
      (
        await server.api('/api/v1/validation', {
          method: 'POST',
          body: JSON.stringify(routes[0]![1]),
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      ).status,
      200,
    );
  });

  it('lists 415 for every JSON-body operation in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, unknown> };
            responses: Record<string, { description: string }>;
          }
        >
      >;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const types = Object.keys(operation.requestBody?.content ?? {});
        if (types.length === 0 || !types.every((t) => t.endsWith('json'))) continue;
        assert.match(operation.responses['415']?.description ?? '', /application\/json/, `${method} ${path}`);
      }
    }
  });
});

describe('impossible dates', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers a scheduledAt the calendar does not have 422 invalid_datetime', async () => {
    for (const scheduledAt of [
      '2030-02-30T00:00:00Z',
      '2030-01-01T24:00:00Z',
      '2031-04-31T09:00:00Z',
      '2027-02-29T00:00:00Z',
    ]) {
      const response = await server.api('/api/v1/posts', {
        json: { message: 'x', accountIds: ['tg-main'], postingMode: 'schedule', scheduledAt },
      });
      const body = await expectProblem(response, 422, 'validation_failed');
      assert.equal((body.errors as { code: string }[])[0]!.code, 'invalid_datetime', scheduledAt);
    }
  });
});
