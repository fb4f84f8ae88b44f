import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { paddedSample, samplePng, startS3rver } from '@postwave/shared/testing';
import { apiKey, botToken } from './helpers.ts';

const main = new URL('../src/main.ts', import.meta.url).pathname;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(check: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const account = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  platform: 'telegram',
  platformAccountId: '@chan',
  credentials: { botToken },
  ...extra,
});

describe('the server process', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'postwave-process-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses to start without SERVICE_API_KEY (exit 1, clear message)', async () => {
    const started = run({ SERVICE_STORAGE_DIR: join(dir, 'media') });
    assert.equal(await started.exited, 1);
    assert.match(started.output(), /SERVICE_API_KEY is required/);
  });

  it('refuses a SERVICE_API_KEY under 32 characters, naming the variable and how to generate one', async () => {
    const started = run({ SERVICE_API_KEY: 'x'.repeat(31), SERVICE_STORAGE_DIR: join(dir, 'media') });
    assert.equal(await started.exited, 1);
    assert.match(started.output(), /SERVICE_API_KEY is too short: use at least 32 characters/);
    assert.match(started.output(), /openssl rand -hex 32/);
  });

  it('refuses a malformed accounts file, naming the file, the account and the field', async () => {
    const file = join(dir, 'bad-accounts.json');
    await writeFile(
      file,
      JSON.stringify({
        accounts: [
          account('good'),
          account('broken', { credentials: { botToken: 'not-a-token-secretvalue' } }),
        ],
      }),
    );
    const started = run({
      SERVICE_API_KEY: apiKey,
      SERVICE_ACCOUNTS_FILE: file,
      SERVICE_STORAGE_DIR: join(dir, 'm'),
    });
    assert.equal(await started.exited, 1);
    const output = started.output();
    assert.ok(output.includes(file), output);
    assert.match(output, /accounts\[1\] \(id "broken"\)/);
    assert.match(output, /credentials\.botToken/);
    assert.doesNotMatch(output, /secretvalue/);

    await writeFile(file, JSON.stringify({ accounts: [account('same'), account('same')] }));
    const duplicate = run({
      SERVICE_API_KEY: apiKey,
      SERVICE_ACCOUNTS_FILE: file,
      SERVICE_STORAGE_DIR: join(dir, 'm'),
    });
    assert.equal(await duplicate.exited, 1);
    assert.match(duplicate.output(), /accounts\[1\] \(id "same"\), field "id": duplicate of accounts\[0\]/);

    await writeFile(file, `{"accounts": [{"id": "x", "credentials": {"botToken": "${botToken}"`);
    const invalidJson = run({
      SERVICE_API_KEY: apiKey,
      SERVICE_ACCOUNTS_FILE: file,
      SERVICE_STORAGE_DIR: join(dir, 'm'),
    });
    assert.equal(await invalidJson.exited, 1);
    assert.match(invalidJson.output(), /is not valid JSON/);
    assert.ok(!invalidJson.output().includes(botToken));

    // Default options are checked as credentials are: a request could not see nor remove them.
    for (const [options, field] of [
      [{ disableNotification: 'yes' }, 'options.disableNotification'],
      [{ protectContent: true, bogus: 1 }, 'options'],
      [{ firstComment: 7 }, 'options.firstComment'],
    ] as const) {
      await writeFile(file, JSON.stringify({ accounts: [account('good'), account('opts', { options })] }));
      const badOptions = run({
        SERVICE_API_KEY: apiKey,
        SERVICE_ACCOUNTS_FILE: file,
        SERVICE_STORAGE_DIR: join(dir, 'm'),
      });
      assert.equal(await badOptions.exited, 1, JSON.stringify(options));
      assert.ok(
        badOptions.output().includes(`accounts[1] (id "opts"), field "${field}"`),
        badOptions.output(),
      );
    }
  });

  it('reloads the accounts file on SIGHUP, keeps the old accounts when the new file is bad, and stops on SIGTERM', async () => {
    const file = join(dir, 'accounts.json');
    await writeFile(file, JSON.stringify({ accounts: [account('one')] }));
    const started = run({
      SERVICE_API_KEY: apiKey,
      SERVICE_ACCOUNTS_FILE: file,
      SERVICE_STORAGE_DIR: join(dir, 'm2'),
    });
    try {
      const port = await waitFor(() => /"port":(\d+)/.exec(started.output())?.[1], 'listening');
      const ids = async () => {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/accounts`, {
          headers: { 'x-api-key': apiKey },
        });
        return ((await response.json()) as { accounts: { id: string }[] }).accounts.map((a) => a.id);
      };
      assert.deepEqual(await ids(), ['one']);

      await writeFile(file, JSON.stringify({ accounts: [account('two', { platform: 'myspace' })] }));
      started.child.kill('SIGHUP');
      await waitFor(
        () => (started.output().includes('reload failed') ? true : undefined),
        'reload failure log',
      );
      assert.match(started.output(), /field \\?"platform\\?": unknown platform/);
      assert.deepEqual(await ids(), ['one']);

      await writeFile(file, JSON.stringify({ accounts: [account('one'), account('two')] }));
      started.child.kill('SIGHUP');
      await waitFor(
        () => (started.output().includes('accounts file reloaded') ? true : undefined),
        'reload log',
      );
      assert.deepEqual(await ids(), ['one', 'two']);

      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0);
      assert.match(started.output(), /shutting down/);
      assert.ok(!started.output().includes(apiKey));
      assert.ok(!started.output().includes(botToken));
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('an upload streaming into S3 when SIGTERM arrives is stored and answered, then the process exits 0', async () => {
    const s3 = await startS3rver();
    const started = run({ SERVICE_API_KEY: apiKey, ...s3.env() });
    try {
      const port = await waitFor(() => /"port":(\d+)/.exec(started.output())?.[1], 'listening');
      const png = paddedSample(samplePng(), 3 * 1024 * 1024);
      const boundary = 'postwave-shutdown-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      // The first half goes at once; the rest only once the server has been told to stop.
      let sendRest!: () => void;
      const restMayGo = new Promise<void>((resolve) => {
        sendRest = resolve;
      });
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(head);
          controller.enqueue(png.subarray(0, png.length / 2));
          await restMayGo;
          controller.enqueue(png.subarray(png.length / 2));
          controller.enqueue(tail);
          controller.close();
        },
      });
      const answer = fetch(`http://127.0.0.1:${port}/api/v1/upload`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setTimeout(resolve, 300));
      started.child.kill('SIGTERM');
      await waitFor(() => (started.output().includes('shutting down') ? true : undefined), 'shutdown log');
      sendRest();
      const response = await answer;
      const text = await response.text();
      assert.equal(response.status, 201, text);
      const { media } = JSON.parse(text) as { media: { url: string; size: number } };
      assert.equal(media.size, png.length);
      const stored = await fetch(media.url);
      assert.equal(stored.status, 200);
      assert.ok(Buffer.from(await stored.arrayBuffer()).equals(png), 'the bucket holds the whole file');
      assert.equal(await started.exited, 0);
      assert.ok(!started.output().includes(s3.secretAccessKey), 'no credential in the log');
    } finally {
      started.child.kill('SIGKILL');
      await s3.close();
    }
  });
});
