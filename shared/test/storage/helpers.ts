import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { LocalStorage } from '../../src/storage/local.ts';

export async function tempLocalStorage(): Promise<{
  storage: LocalStorage;
  directory: string;
  cleanup(): Promise<void>;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'postwave-local-'));
  const storage = new LocalStorage({
    directory,
    publicBaseUrl: 'https://media.example.test/',
    signingSecret: 'test-signing-secret',
  });
  return { storage, directory, cleanup: () => rm(directory, { recursive: true, force: true }) };
}

/** Every file under the storage directory, including hidden temp and sidecar files. */
export async function allFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** A stream yielding `bytes` in chunks of `chunkSize`, as a network body would. */
export function chunked(bytes: Buffer, chunkSize = 1024): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize)
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  return Readable.from(chunks);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export { text };
