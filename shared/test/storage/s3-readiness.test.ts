import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { S3Storage } from '../../src/storage/s3.ts';
import { type RunningS3, startS3rver } from '../fakes/index.ts';

/**
 * Contract F: `/ready` is 200 only with storage writable. s3rver accepts every signed request, so
 * a bucket that refuses writes is played by a proxy in front of it answering S3's AccessDenied to
 * the refused methods and passing everything else through (the Host header unchanged, so
 * s3rver still verifies the signatures made for the proxy's address).
 */
async function startProxy(target: string, refused: ReadonlySet<string>) {
  const seen: string[] = [];
  const server = createServer((incoming, outgoing) => {
    seen.push(`${incoming.method} ${new URL(incoming.url!, target).pathname}`);
    if (refused.has(incoming.method!)) {
      incoming.resume();
      outgoing
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code></Error>');
      return;
    }
    const upstream = request(
      new URL(incoming.url!, target),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

describe('S3Storage readiness writes a probe object', () => {
  let s3: RunningS3;
  const probePath = () => `/${s3.bucket}/.postwave-health-probe`;
  /** The bucket's keys, listed anonymously (s3rver allows it; the SDK's signed list it rejects). */
  const objectsLeft = async () => {
    const listing = await (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`)).text();
    return [...listing.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]);
  };

  /** `check()` of a storage reaching s3rver through a proxy refusing `refused`, and what it sent. */
  async function checkThrough(refused: string[]) {
    const proxy = await startProxy(s3.endpoint, new Set(refused));
    const storage = new S3Storage({ ...s3.storageOptions, endpoint: proxy.endpoint });
    try {
      const outcome = await storage.check().then(
        () => undefined,
        (error: unknown) => error,
      );
      return { outcome, seen: proxy.seen };
    } finally {
      await storage.close();
      await proxy.close();
    }
  }

  before(async () => {
    s3 = await startS3rver();
  });
  after(() => s3?.close());

  it('reads, puts and deletes the probe, leaving no object behind', async () => {
    const { outcome, seen } = await checkThrough([]);
    assert.equal(outcome, undefined);
    assert.deepEqual(seen, [`GET ${probePath()}`, `PUT ${probePath()}`, `DELETE ${probePath()}`]);
    assert.deepEqual(await objectsLeft(), []);
  });

  it('is not ready when the bucket refuses writes, though reads still work', async () => {
    const { outcome, seen } = await checkThrough(['PUT']);
    assert.ok(outcome instanceof Error);
    assert.equal((outcome as { code?: string }).code, 'unavailable');
    assert.match(outcome.message, /not writable/);
    // The read alone (the check before writes were probed) would have passed.
    assert.deepEqual(seen, [`GET ${probePath()}`, `PUT ${probePath()}`]);
    assert.deepEqual(await objectsLeft(), []);
  });

  it('is not ready when the probe cannot be deleted', async () => {
    const { outcome, seen } = await checkThrough(['DELETE']);
    assert.equal((outcome as { code?: string }).code, 'unavailable');
    assert.deepEqual(seen, [`GET ${probePath()}`, `PUT ${probePath()}`, `DELETE ${probePath()}`]);
    // The one fixed key: a later check that can delete removes what this one left.
    assert.deepEqual(await objectsLeft(), ['.postwave-health-probe']);
    assert.equal((await checkThrough([])).outcome, undefined);
    assert.deepEqual(await objectsLeft(), []);
  });
});
