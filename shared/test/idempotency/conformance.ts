import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';

/**
 * One deployment under test. The suite speaks HTTP only, so the same sequences of
 * `Idempotency-Key` requests must get the same answers from both servers.
 */
export interface IdempotencyTarget {
  url: string;
  /** Authentication for the caller whose keys are tested. */
  headers: Record<string, string>;
  /** Another caller of the same deployment (Scheduler: another user), when there can be one. */
  otherCaller?: { headers: Record<string, string>; post(message: string): Record<string, unknown> };
  /** A `POST /api/v1/posts` body that publishes `message` now to an account that works. */
  post(message: string): Record<string, unknown>;
  /** A body refused with 422 before anything is published (an unknown account). */
  invalidPost(message: string): Record<string, unknown>;
  /** The status of a post published now (self-hosted 200, Scheduler 201). */
  publishedStatus: number;
  /** How often `message` reached the platform. */
  published(message: string): number;
  /** How many publish attempts (successful or not) reached the platform. */
  attempts(): number;
  /** The next publish to the platform hangs about `ms`, then fails once transiently (and is retried). */
  slowNextPublish(ms: number): void;
  /** The next publish is refused by the platform for good. */
  failNextPublish(): void;
  /** The status of a post whose every target failed (self-hosted 502, Scheduler 201 with status failed). */
  failedStatus: number;
  /**
   * Scheduler only: a fresh draft and the path that publishes it (`POST /api/v1/posts/{id}`),
   * for the second idempotent route.
   */
  draftAction?(message: string): Promise<{ path: string; body: Record<string, unknown> }>;
}

interface Answer {
  status: number;
  text: string;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary JSON
  body: any;
}

async function send(
  target: IdempotencyTarget,
  init: {
    key?: string | undefined;
    body: unknown;
    raw?: string;
    path?: string;
    headers?: Record<string, string>;
  },
): Promise<Answer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(init.headers ?? target.headers),
  };
  if (init.key !== undefined) headers['idempotency-key'] = init.key;
  const response = await fetch(target.url + (init.path ?? '/api/v1/posts'), {
    method: 'POST',
    headers,
    body: init.raw ?? JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, text, headers: response.headers, body };
}

function expectProblem(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, `expected ${status} ${code}, got ${answer.status} ${answer.text}`);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(answer.body?.code, code);
  assert.equal(answer.body?.status, status);
}

const newKey = () => `conf-${randomUUID()}`;
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { n: value };
  return value;
}

/**
 * Registers the Idempotency-Key rules (docs/idempotency.md) as node:test cases. Call it inside a `describe`
 * whose `before` has started the deployment; `target()` is read when each test runs.
 */
export function idempotencyConformance(
  target: () => IdempotencyTarget,
  deployment: { callers: 'one' | 'many'; postActions: boolean },
): void {
  it('processes the first request and replays it byte for byte, publishing once', async () => {
    const t = target();
    const message = unique('replay');
    const key = newKey();
    const first = await send(t, { key, body: t.post(message) });
    assert.equal(first.status, t.publishedStatus, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await send(t, { key, body: t.post(message) });
    assert.equal(again.status, first.status);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(t.published(message), 1);
  });

  it('fingerprints the canonical JSON: key order and whitespace do not matter', async () => {
    const t = target();
    const message = unique('canonical');
    const key = newKey();
    const body = t.post(message);
    const first = await send(t, { key, body });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await send(t, { key, body, raw: JSON.stringify(reordered, null, 3) });
    assert.equal(again.status, first.status);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(t.published(message), 1);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused, nothing published', async () => {
    const t = target();
    const key = newKey();
    const message = unique('reused');
    await send(t, { key, body: t.post(message) });
    const other = unique('other body');
    const reused = await send(t, { key, body: t.post(other) });
    expectProblem(reused, 422, 'idempotency_key_reused');
    assert.equal(reused.headers.get('idempotent-replayed'), null);
    assert.equal(t.published(other), 0);
    // Even a body that would be invalid: the key is checked first.
    expectProblem(await send(t, { key, body: { message: 1 } }), 422, 'idempotency_key_reused');
  });

  it('answers a duplicate of a running request with 409 idempotency_in_progress and Retry-After: 1', async () => {
    const t = target();
    const key = newKey();
    const message = unique('concurrent');
    t.slowNextPublish(1500);
    const first = send(t, { key, body: t.post(message) });
    await new Promise((r) => setTimeout(r, 400));
    const duplicate = await send(t, { key, body: t.post(message) });
    expectProblem(duplicate, 409, 'idempotency_in_progress');
    assert.equal(duplicate.headers.get('retry-after'), '1');
    const otherBody = await send(t, { key, body: t.post(unique('while running')) });
    expectProblem(otherBody, 422, 'idempotency_key_reused');
    const done = await first;
    assert.equal(done.status, t.publishedStatus, done.text);
    const after = await send(t, { key, body: t.post(message) });
    assert.equal(after.text, done.text);
    assert.equal(after.headers.get('idempotent-replayed'), 'true');
    assert.equal(t.published(message), 1);
  });

  it('lets many simultaneous duplicates publish once', async () => {
    const t = target();
    const key = newKey();
    const message = unique('burst');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(t, { key, body: t.post(message) })),
    );
    const winners = answers.filter((a) => a.status === t.publishedStatus);
    for (const loser of answers.filter((a) => a.status !== t.publishedStatus)) {
      if (loser.status === 409) expectProblem(loser, 409, 'idempotency_in_progress');
      else assert.equal(loser.headers.get('idempotent-replayed'), 'true', loser.text);
    }
    assert.ok(winners.length >= 1);
    assert.equal(t.published(message), 1);
  });

  it('releases a key refused with 422 before publishing, so the corrected request can use it', async () => {
    const t = target();
    const key = newKey();
    const message = unique('fixed');
    const bad = await send(t, { key, body: t.invalidPost(message) });
    expectProblem(bad, 422, 'validation_failed');
    const badAgain = await send(t, { key, body: t.invalidPost(message) });
    expectProblem(badAgain, 422, 'validation_failed');
    assert.equal(badAgain.headers.get('idempotent-replayed'), null);
    const good = await send(t, { key, body: t.post(message) });
    assert.equal(good.status, t.publishedStatus, good.text);
    assert.equal(good.headers.get('idempotent-replayed'), null);
    assert.equal(t.published(message), 1);
  });

  it('releases a key refused with 400 (malformed body)', async () => {
    const t = target();
    const key = newKey();
    const message = unique('after 400');
    expectProblem(
      await send(t, { key, body: { ...t.post(message), accountIds: 'nope' } }),
      400,
      'invalid_request',
    );
    expectProblem(await send(t, { key, body: undefined, raw: '{"message": ' }), 400, 'invalid_request');
    const good = await send(t, { key, body: t.post(message) });
    assert.equal(good.status, t.publishedStatus, good.text);
    assert.equal(t.published(message), 1);
  });

  it('stores an answer whose every target failed (attempted) and replays it without publishing again', async () => {
    const t = target();
    const key = newKey();
    const message = unique('failed');
    t.failNextPublish();
    const first = await send(t, { key, body: t.post(message) });
    assert.equal(first.status, t.failedStatus, first.text);
    const attempts = t.attempts();
    const again = await send(t, { key, body: t.post(message) });
    assert.equal(again.status, first.status);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(t.attempts(), attempts);
    assert.equal(t.published(message), 0);
  });

  it('accepts keys of 1 to 255 printable ASCII characters and refuses anything else with 400', async () => {
    const t = target();
    const message = unique('long key');
    const longest = `${randomUUID()}${'k'.repeat(255 - 36)}`;
    const ok = await send(t, { key: longest, body: t.post(message) });
    assert.equal(ok.status, t.publishedStatus, ok.text);
    const symbols = `!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~ ${randomUUID()}`;
    const symbolic = await send(t, { key: symbols, body: t.post(unique('symbols')) });
    assert.equal(symbolic.status, t.publishedStatus, symbolic.text);

    const refused = unique('refused key');
    for (const key of [`${longest}x`, '', `tab\there-${randomUUID()}`, `caf\u00e9-${randomUUID()}`]) {
      const answer = await send(t, { key, body: t.post(refused) });
      expectProblem(answer, 400, 'invalid_request');
    }
    assert.equal(t.published(refused), 0);
  });

  it('refuses JSON nested deeper than 32 levels with 400 before fingerprinting (never 500)', async () => {
    const t = target();
    const message = unique('deep');
    const key = newKey();
    const body = (depth: number) => ({ ...t.post(message), deep: nested(depth) });
    // The post object itself is level 1, so `deep` may nest 31 more.
    const deepest = await send(t, { key, body: body(31) });
    assert.equal(deepest.status, t.publishedStatus, deepest.text);
    expectProblem(await send(t, { key: newKey(), body: body(32) }), 400, 'invalid_request');
    const huge = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expectProblem(await send(t, { key: newKey(), body: undefined, raw: huge }), 400, 'invalid_request');
    expectProblem(await send(t, { body: undefined, raw: huge }), 400, 'invalid_request');
    // The first request's key was not disturbed by the refused ones.
    const replay = await send(t, { key, body: body(31) });
    assert.equal(replay.text, deepest.text);
    assert.equal(t.published(message), 1);
  });

  it('without a key, every request is processed', async () => {
    const t = target();
    const message = unique('no key');
    const first = await send(t, { body: t.post(message) });
    const second = await send(t, { body: t.post(message) });
    assert.equal(first.status, t.publishedStatus);
    assert.equal(second.status, t.publishedStatus);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.equal(t.published(message), 2);
  });

  // The self-hosted server has one caller (one API key); the Scheduler has users.
  if (deployment.callers === 'many') {
    it('scopes keys to the caller', async () => {
      const t = target();
      assert.ok(t.otherCaller, 'a deployment with many callers names a second one');
      const key = newKey();
      const mine = unique('mine');
      const theirs = unique('theirs');
      assert.equal((await send(t, { key, body: t.post(mine) })).status, t.publishedStatus);
      const other = await send(t, { key, body: t.otherCaller.post(theirs), headers: t.otherCaller.headers });
      assert.equal(other.status, t.publishedStatus, other.text);
      assert.equal(other.headers.get('idempotent-replayed'), null);
      assert.equal(t.published(theirs), 1);
    });
  }

  if (deployment.postActions) {
    it('fingerprints the path: POST /api/v1/posts/{id} is a separate operation', async () => {
      const t = target();
      assert.ok(t.draftAction, 'a deployment with post actions can make a draft');
      const message = unique('draft');
      const action = await t.draftAction(message);
      const key = newKey();
      const first = await send(t, { key, path: action.path, body: action.body });
      assert.equal(first.status, 200, first.text);
      const again = await send(t, { key, path: action.path, body: action.body });
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(t.published(message), 1);
      const otherPath = await send(t, { key, body: action.body });
      expectProblem(otherPath, 422, 'idempotency_key_reused');
    });
  }
}
