import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mediaKeyPattern } from '../../src/schemas/media.ts';
import { storageErrorProblem, storageErrorStatus } from '../../src/storage/http-status.ts';
import { filenameFromKey, filenameSlug, newMediaKey } from '../../src/storage/keys.ts';
import { objectStorageConfigFromEnv } from '../../src/storage/s3-config.ts';
import { normalizeContentType, sniffContentType } from '../../src/storage/sniff.ts';
import { StorageError } from '../../src/storage/types.ts';
import { sampleMp4 } from '../fakes/sample-media.ts';

describe('newMediaKey', () => {
  it('makes unguessable keys that match the documented key pattern whatever the file name', () => {
    const names = [
      'photo.png',
      '../../etc/passwd',
      'C:\\Users\\me\\Été à Paris.JPG',
      '.hidden',
      '',
      '💥💥.gif',
      'a'.repeat(500),
    ];
    const keys = new Set<string>();
    for (const name of names) {
      const key = newMediaKey(name, 'image/jpeg');
      assert.match(key, mediaKeyPattern, name);
      assert.match(key, /^[A-Za-z0-9]{22}-[a-z0-9-]+\.jpg$/, name);
      keys.add(key);
    }
    assert.equal(keys.size, names.length);
    assert.equal(filenameSlug('C:\\Users\\me\\Été à Paris.JPG'), 'ete-a-paris');
    assert.equal(filenameSlug('../../etc/passwd'), 'passwd');
    assert.equal(filenameSlug('💥.gif'), 'media');
    assert.equal(filenameFromKey(newMediaKey('My Video.mov', 'video/quicktime')), 'my-video.mov');
  });
});

describe('normalizeContentType', () => {
  it('canonicalises aliases and treats octet-stream as undeclared', () => {
    assert.equal(normalizeContentType('image/jpg'), 'image/jpeg');
    assert.equal(normalizeContentType(' Image/PNG ; q=1'), 'image/png');
    assert.equal(normalizeContentType('application/octet-stream'), undefined);
    assert.equal(normalizeContentType(''), undefined);
    assert.equal(normalizeContentType(undefined), undefined);
  });
});

describe('sniffContentType', () => {
  it('reads an M4V-branded MP4 as video/mp4 and refuses lookalikes', async () => {
    const m4v = sampleMp4();
    m4v.write('M4V ', 8, 'ascii');
    assert.equal(await sniffContentType(m4v), 'video/mp4');
    assert.equal(await sniffContentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
    assert.equal(await sniffContentType(new Uint8Array(0)), undefined);
  });
});

describe('objectStorageConfigFromEnv', () => {
  const complete = {
    OBJECT_STORAGE_BUCKET: 'media',
    OBJECT_STORAGE_ACCESS_KEY_ID: 'AKIA',
    OBJECT_STORAGE_SECRET_ACCESS_KEY: 'secret',
  };

  it('is undefined when nothing is set', () => {
    assert.equal(objectStorageConfigFromEnv({ PORT: '3000', OBJECT_STORAGE_BUCKET: ' ' }), undefined);
  });

  it('defaults to AWS with a virtual-hosted public URL', () => {
    assert.deepEqual(objectStorageConfigFromEnv(complete), {
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'media',
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      publicBaseUrl: 'https://media.s3.us-east-1.amazonaws.com',
    });
  });

  it('uses path style with a custom endpoint unless told otherwise', () => {
    const pathStyle = objectStorageConfigFromEnv({
      ...complete,
      OBJECT_STORAGE_ENDPOINT: 'http://minio:9000/',
    });
    assert.equal(pathStyle?.forcePathStyle, true);
    assert.equal(pathStyle?.publicBaseUrl, 'http://minio:9000/media');
    const virtual = objectStorageConfigFromEnv({
      ...complete,
      OBJECT_STORAGE_ENDPOINT: 'https://s3.example.com',
      OBJECT_STORAGE_FORCE_PATH_STYLE: 'false',
      OBJECT_STORAGE_REGION: 'eu-west-3',
    });
    assert.equal(virtual?.forcePathStyle, false);
    assert.equal(virtual?.region, 'eu-west-3');
    assert.equal(virtual?.publicBaseUrl, 'https://media.s3.example.com');
    const explicit = objectStorageConfigFromEnv({
      ...complete,
      OBJECT_STORAGE_PUBLIC_URL: 'https://cdn.example.com/m/',
    });
    assert.equal(explicit?.publicBaseUrl, 'https://cdn.example.com/m');
  });

  it('names the missing or malformed variable, never a secret', () => {
    assert.throws(
      () => objectStorageConfigFromEnv({ OBJECT_STORAGE_BUCKET: 'media' }),
      /OBJECT_STORAGE_ACCESS_KEY_ID/,
    );
    assert.throws(
      () => objectStorageConfigFromEnv({ ...complete, OBJECT_STORAGE_BUCKET: undefined }),
      /OBJECT_STORAGE_BUCKET/,
    );
    assert.throws(
      () => objectStorageConfigFromEnv({ ...complete, OBJECT_STORAGE_FORCE_PATH_STYLE: 'maybe' }),
      /OBJECT_STORAGE_FORCE_PATH_STYLE/,
    );
    assert.throws(
      () => objectStorageConfigFromEnv({ ...complete, OBJECT_STORAGE_ENDPOINT: 'minio:9000' }),
      (error) => {
        assert.match(String(error), /OBJECT_STORAGE_ENDPOINT/);
        assert.doesNotMatch(String(error), /secret/);
        return true;
      },
    );
  });
});

describe('storageErrorStatus', () => {
  it('maps storage failures to the problem codes of the API', () => {
    const status = (code: ConstructorParameters<typeof StorageError>[0]) =>
      storageErrorStatus(new StorageError(code, 'x'));
    assert.deepEqual(status('too_large'), { status: 413, code: 'payload_too_large' });
    assert.deepEqual(status('type_mismatch'), { status: 415, code: 'unsupported_media_type' });
    assert.deepEqual(status('unsupported_type'), { status: 415, code: 'unsupported_media_type' });
    assert.deepEqual(status('invalid_signature'), { status: 403, code: 'forbidden' });
    assert.deepEqual(status('expired'), { status: 403, code: 'forbidden' });
    assert.deepEqual(status('not_found'), { status: 404, code: 'not_found' });
    assert.deepEqual(status('length_mismatch'), { status: 400, code: 'invalid_request' });
    assert.deepEqual(status('already_exists'), { status: 409, code: 'invalid_status' });
    // A store that is down is temporary: 503, not a 500 that reads as a bug.
    assert.deepEqual(status('unavailable'), { status: 503, code: 'unavailable' });
  });

  it('answers a store that is down without its cause, other failures with their message', () => {
    const { problem: down, headers } = storageErrorProblem(
      new StorageError('unavailable', 'S3 put failed', {
        cause: new Error('connect ECONNREFUSED 10.0.0.5:9000'),
      }),
    );
    assert.deepEqual(
      [down.status, down.code, down.detail],
      [503, 'unavailable', 'Media storage is unavailable; try again later'],
    );
    assert.deepEqual(headers, { 'Retry-After': '30' });
    const { problem: large } = storageErrorProblem(new StorageError('too_large', 'The file is over 10 MB'));
    assert.deepEqual(
      [large.status, large.code, large.detail],
      [413, 'payload_too_large', 'The file is over 10 MB'],
    );
  });
});
