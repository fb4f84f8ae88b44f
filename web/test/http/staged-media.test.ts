import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type FakeX,
  type FakeYouTube,
  sampleMp4,
  startFakeX,
  startFakeYouTube,
} from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

/*
 * Staged media through the Scheduler over real HTTP: a scheduled post with video has its media
 * uploaded (and processed) at the platform's fake ahead of `scheduledAt`, so only the final call
 * happens at the due time; the staging state is in GET /api/v1/posts/{id}; an edit clears it.
 * The fake X holds each video in processing for a few seconds (a slow upload). On YouTube, which
 * keeps a staged private video, an edit or a delete of the post removes the upload.
 */

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

/** The browser's round trip through the generic OAuth connect flow (the fake approves at once). */
async function connectX(client: Client): Promise<string> {
  const start = await client.fetch('/api/v1/accounts/connect/x');
  assert.equal(start.status, 302, await start.text());
  const consent = await fetch(new URL(start.headers.get('location')!), { redirect: 'manual' });
  assert.equal(consent.status, 302);
  const callback = new URL(consent.headers.get('location')!);
  const done = await client.fetch(callback.pathname + callback.search);
  assert.equal(done.status, 302, await done.text());
  const { body } = await client.json('/api/v1/accounts');
  return body.accounts.find((a: Json) => a.platform === 'x').id;
}

async function uploadVideo(client: Client): Promise<Json> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(sampleMp4())], { type: 'video/mp4' }), 'clip.mp4');
  const res = await client.json('/api/v1/upload', { method: 'POST', body: form });
  // 200: the workspace already had these bytes and the media library answers that media (docs/media-library.md).
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
  return res.body.media;
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const describeRequest = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

for (const backend of backends()) {
  describe(`staged media (${backend})`, () => {
    let x: FakeX;
    let youtube: FakeYouTube;
    let app: RunningApp;

    before(async () => {
      // Three STATUS polls of a second each: a video takes about 3 s to be ready at the fake.
      x = await startFakeX({ processingPolls: 3 });
      youtube = await startFakeYouTube();
      app = await startApp(backend, {
        ...x.env(),
        ...youtube.env(),
        DISPATCH_SECRET: '',
        DISPATCHER_ENABLED: 'true',
        DISPATCHER_INTERVAL_MS: '600000',
        DISPATCH_STAGE_LEAD_MS: '600000',
      });
    });
    after(async () => {
      await app?.stop();
      await x?.close();
      await youtube?.close();
    });

    test('a scheduled video is uploaded ahead; only the final call happens at the due time', async () => {
      const { client } = await signUp(app.url, 'staged');
      const account = await connectX(client);
      const media = await uploadVideo(client);
      const scheduledAt = new Date(Date.now() + 9_000).toISOString();
      const created = await client.json('/api/v1/posts', {
        json: {
          message: 'staged clip',
          accountIds: [account],
          media: [media],
          postingMode: 'schedule',
          scheduledAt,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body.staging, []);
      const id = created.body.id;

      const staged = await waitFor(
        'staging',
        async () => (await client.json(`/api/v1/posts/${id}`)).body,
        (post) => post.staging?.[0]?.status === 'staged' || post.status !== 'scheduled',
      );
      assert.equal(staged.status, 'scheduled', 'staged before the due time');
      assert.ok(Date.now() < Date.parse(scheduledAt), 'staging finished before scheduledAt');
      assert.equal(staged.staging.length, 1);
      assert.equal(staged.staging[0].accountId, account);
      assert.equal(staged.staging[0].platform, 'x');
      assert.ok(Date.parse(staged.staging[0].expiresAt) > Date.parse(scheduledAt));
      const [video] = [...x.media.values()];
      assert.equal(video?.state, 'succeeded', 'uploaded and processed at the platform ahead of time');
      assert.equal(x.posts.length, 0, 'nothing published yet');
      const seenBeforeDue = x.server.requests.length;

      const done = await waitFor(
        'publishing',
        async () => (await client.json(`/api/v1/posts/${id}`)).body,
        (post) => post.status !== 'scheduled',
      );
      assert.equal(done.status, 'posted', JSON.stringify(done.results));
      assert.ok(Date.parse(done.postedAt) >= Date.parse(scheduledAt), 'not published before scheduledAt');
      const atDue = x.server.requests.slice(seenBeforeDue).map(describeRequest);
      assert.deepEqual(atDue, ['POST /2/tweets'], 'only the final call at the due time');
      const tweet = x.posts.find((p) => p.id === done.results[0].platformPostId);
      assert.deepEqual(tweet?.mediaIds, [video!.id]);
      assert.equal(x.media.size, 1, 'the media was uploaded once');
    });

    test('a staging failure shows as stage_failed and never blocks the due-time publish', async () => {
      const { client } = await signUp(app.url, 'staged-fail');
      const account = await connectX(client);
      const media = await uploadVideo(client);
      // The upload ahead is refused once; the due-time publish then uploads as usual.
      x.server.inject({
        path: /^\/2\/media\/upload\/initialize$/,
        status: 503,
        json: { title: 'Service Unavailable', detail: 'Service Unavailable', status: 503 },
      });
      const scheduledAt = new Date(Date.now() + 6_000).toISOString();
      const created = await client.json('/api/v1/posts', {
        json: {
          message: 'fails ahead',
          accountIds: [account],
          media: [media],
          postingMode: 'schedule',
          scheduledAt,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const failed = await waitFor(
        'staging',
        async () => (await client.json(`/api/v1/posts/${created.body.id}`)).body,
        (post) => post.staging?.[0]?.status === 'stage_failed' || post.status !== 'scheduled',
      );
      assert.equal(failed.staging[0]?.status, 'stage_failed', JSON.stringify(failed.staging));
      assert.ok(failed.staging[0].error?.message, 'says why');
      const done = await waitFor(
        'publishing',
        async () => (await client.json(`/api/v1/posts/${created.body.id}`)).body,
        (post) => post.status !== 'scheduled',
      );
      assert.equal(done.status, 'posted', JSON.stringify(done.results));
      const tweet = x.posts.find((p) => p.id === done.results[0].platformPostId);
      assert.equal(tweet?.text, 'fails ahead');
      assert.equal(tweet?.mediaIds.length, 1, 'uploaded at the due time');
    });

    test('editing a staged post clears its staging; it is staged again for the new content', async () => {
      const { client } = await signUp(app.url, 'staged-edit');
      const account = await connectX(client);
      const media = await uploadVideo(client);
      const scheduledAt = new Date(Date.now() + 5 * 60_000).toISOString();
      const created = await client.json('/api/v1/posts', {
        json: {
          message: 'first cut',
          accountIds: [account],
          media: [media],
          postingMode: 'schedule',
          scheduledAt,
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id;
      const first = await waitFor(
        'staging',
        async () => (await client.json(`/api/v1/posts/${id}`)).body,
        (post) => post.staging?.[0]?.status === 'staged',
      );

      const edited = await client.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { message: 'second cut' },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.equal(edited.body.message, 'second cut');
      const afterEdit = edited.body.staging;
      // Gone, or already replaced by the new content's staging (the stager is woken by the edit and
      // may finish before the response is built on a fast database).
      assert.ok(
        afterEdit.length === 0 ||
          afterEdit[0].status === 'staging' ||
          Date.parse(afterEdit[0].expiresAt) > Date.parse(first.staging[0].expiresAt),
        `the old staging is gone: ${JSON.stringify(afterEdit)}`,
      );
      // Still within the lead: the stager is woken by the edit and stages the new content.
      const again = await waitFor(
        'staging again',
        async () => (await client.json(`/api/v1/posts/${id}`)).body,
        (post) => post.staging?.[0]?.status === 'staged',
      );
      assert.ok(
        Date.parse(again.staging[0].expiresAt) > Date.parse(first.staging[0].expiresAt),
        'staged again after the edit',
      );
      assert.equal(
        x.posts.filter((p) => p.text.endsWith(' cut')).length,
        0,
        'nothing of this post published',
      );

      // Moving it a little later keeps the upload (the platform keeps it a day).
      const moved = await client.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { scheduledAt: new Date(Date.parse(scheduledAt) + 60_000).toISOString() },
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.staging[0]?.status, 'staged');
      // Moved past the day the platform keeps the upload: the handle is dropped (staged again
      // once the post comes within the lead).
      const far = await client.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { scheduledAt: new Date(Date.parse(scheduledAt) + 2 * 86_400_000).toISOString() },
      });
      assert.equal(far.status, 200, JSON.stringify(far.body));
      assert.deepEqual(far.body.staging, []);
      // Back to draft: nothing staged any more.
      const draft = await client.json(`/api/v1/posts/${id}`, { json: { postingMode: 'draft' } });
      assert.equal(draft.status, 200, JSON.stringify(draft.body));
      assert.deepEqual(draft.body.staging, []);
    });

    test('on YouTube, editing or deleting a staged post removes the private upload from the platform', async () => {
      const { api } = await userWithToken(app.url, 'staged-youtube');
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'youtube', credentials: youtube.credentials() },
      });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      const account = connected.body.id;
      const media = await uploadVideo(api);
      const created = await api.json('/api/v1/posts', {
        json: {
          message: 'Trailer\nComing soon',
          accountIds: [account],
          media: [media],
          postingMode: 'schedule',
          scheduledAt: new Date(Date.now() + 5 * 60_000).toISOString(),
          accountOptions: { [account]: { title: 'Trailer', privacyStatus: 'public' } },
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id;
      const read = async () => (await api.json(`/api/v1/posts/${id}`)).body;
      const stagedVideo = async () => {
        await waitFor('staging', read, (post) => post.staging?.[0]?.status === 'staged');
        const video = youtube.videos.at(-1)!;
        assert.equal(video.status.privacyStatus, 'private', 'uploaded ahead as private');
        return video.id;
      };
      const held = (videoId: string) => youtube.videos.some((v) => v.id === videoId);

      const first = await stagedVideo();
      const edited = await api.json(`/api/v1/posts/${id}`, {
        method: 'PATCH',
        json: { message: 'Trailer\nOut now' },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      await waitFor(
        'the first upload removed',
        async () => held(first),
        (h) => !h,
      );
      assert.ok(youtube.deletedVideos.includes(first));

      // Staged again for the new content (still within the lead); deleting the post removes it too.
      const second = await waitFor(
        'staged again',
        async () => {
          const post = await read();
          const latest = youtube.videos.at(-1);
          return post.staging?.[0]?.status === 'staged' && latest && latest.id !== first ? latest.id : null;
        },
        (videoId) => videoId !== null,
      );
      const deleted = await api.fetch(`/api/v1/posts/${id}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      await waitFor(
        'the second upload removed',
        async () => held(second!),
        (h) => !h,
      );
      assert.ok(youtube.deletedVideos.includes(second!));
      assert.equal(
        youtube.videos.filter((v) => v.snippet.title === 'Trailer').length,
        0,
        'nothing of this post is left on the channel',
      );
    });
  });
}
