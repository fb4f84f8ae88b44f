import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicMediaUrl, mediaUrlWarnings } from '../../src/platforms/public-media-url.ts';

describe('public media URLs', () => {
  it('tells loopback, private and local hosts from public ones', () => {
    for (const url of [
      'http://127.0.0.1:3000/media/a.jpg',
      'http://localhost/media/a.jpg',
      'http://app.localhost/media/a.jpg',
      'http://10.1.2.3/a.jpg',
      'http://172.20.0.5/a.jpg',
      'http://192.168.1.10/a.jpg',
      'http://169.254.169.254/a.jpg',
      'http://100.64.0.1/a.jpg',
      'http://[::1]:3000/a.jpg',
      'http://[fd00::1]/a.jpg',
      'http://[::ffff:127.0.0.1]/a.jpg',
      'http://minio:9000/bucket/a.jpg',
      'http://nas.local/a.jpg',
      'not a url',
    ]) {
      assert.equal(isPublicMediaUrl(url), false, url);
    }
    for (const url of [
      'https://media.example.com/a.jpg',
      'https://bucket.s3.eu-west-1.amazonaws.com/a.jpg',
      'http://203.0.113.7/a.jpg',
      'http://172.32.0.1/a.jpg',
      'http://[2001:db8::1]/a.jpg',
    ]) {
      assert.equal(isPublicMediaUrl(url), true, url);
    }
  });

  it('warns per fetched file, with its path', () => {
    const file = (url: string, kind: 'image' | 'video') => ({
      key: 'k',
      filename: 'f',
      contentType: kind === 'image' ? 'image/jpeg' : 'video/mp4',
      size: 1,
      kind,
      url,
    });
    const warnings = mediaUrlWarnings(
      [
        file('https://cdn.example/a', 'image'),
        file('http://127.0.0.1/b', 'image'),
        file('http://127.0.0.1/c', 'video'),
      ],
      'Facebook',
      (m) => m.kind === 'image',
    );
    assert.deepEqual(
      warnings.map((w) => [w.code, w.path]),
      [['media_url_not_public', 'media[1]']],
    );
    assert.match(warnings[0]!.message, /SERVICE_PUBLIC_URL/);
  });
});
