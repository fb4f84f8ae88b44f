/**
 * Staged media (docs/dispatch.md, "Staged media"): the due-time latency of a scheduled video post, with and
 * without staging, against an X-like fake whose video takes a few seconds to be ready after upload
 * (STATUS answers `in_progress` for BENCH_STAGE_PROCESSING_SECONDS, default 5). Latency is taken
 * at the fake: from `scheduledAt` until the post arrived. Without staging the upload and its
 * processing happen at the due time; with staging (DISPATCH_STAGE_LEAD_MS) they happen ahead and
 * only `POST /2/tweets` is left. The embedded dispatcher on PGlite, as `npm start` runs it.
 * Env: BENCH_STAGE_POSTS (per mode, default 3), BENCH_STAGE_PROCESSING_SECONDS (default 5).
 */
import { sampleMp4 } from '../shared/test/fakes/sample-media.ts';
import { type FakeX, startFakeX } from '../shared/test/fakes/x.ts';
import { saveAccount } from '../web/server/accounts/save-account.ts';
import { Dispatcher } from '../web/server/dispatch/dispatcher.ts';
import { dispatchOptions } from '../web/server/dispatch/service.ts';
import { uploadFromRequest } from '../web/server/media/service.ts';
import { createPost } from '../web/server/posts/create-post.ts';
import { getPost } from '../web/server/posts/get-post.ts';
import { percentile, setUp, until } from './support/dispatch-setup.ts';

const postsPerMode = Number(process.env.BENCH_STAGE_POSTS ?? 3);
const processingSeconds = Number(process.env.BENCH_STAGE_PROCESSING_SECONDS ?? 5);
const fmt = (ms: number) => `${Math.round(ms)} ms`;

/** When each tweet arrived at the fake, by its text (polled every 5 ms in this process). */
function watchArrivals(x: FakeX): { arrivals: Map<string, number>; stop(): void } {
  const arrivals = new Map<string, number>();
  const timer = setInterval(() => {
    for (const post of x.posts) if (!arrivals.has(post.text)) arrivals.set(post.text, Date.now());
  }, 5);
  return { arrivals, stop: () => clearInterval(timer) };
}

async function run(staging: boolean): Promise<void> {
  const x = await startFakeX({ processingPolls: processingSeconds });
  const setup = await setUp(
    'pglite',
    x.url,
    { telegram: 0 },
    {
      ...x.env(),
      DISPATCH_STAGE_LEAD_MS: staging ? '600000' : '0',
    },
  );
  const dispatcher = new Dispatcher(setup.ctx, {
    ...dispatchOptions(setup.ctx),
    intervalMs: setup.ctx.config.dispatcher.intervalMs,
  });
  const watch = watchArrivals(x);
  try {
    const { account } = await saveAccount(setup.ctx, setup.workspaceId, {
      platform: 'x',
      platformAccountId: x.user.id,
      credentials: x.credentials(),
      profile: { name: 'Bench X', username: x.user.username },
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(sampleMp4())], { type: 'video/mp4' }), 'clip.mp4');
    const { media } = await uploadFromRequest(
      setup.ctx,
      setup.workspaceId,
      new Request('http://bench.invalid/upload', { method: 'POST', body: form }),
    );
    dispatcher.start();
    // Far enough ahead for staging (upload + processing) to finish first.
    const first = Date.now() + (processingSeconds + 5) * 1000;
    const scheduled: { id: string; text: string; at: number }[] = [];
    for (let i = 0; i < postsPerMode; i++) {
      const at = first + i * 1500;
      const text = `video ${staging ? 'staged' : 'plain'} ${i}`;
      const post = await createPost(setup.ctx, setup.workspaceId, {
        message: text,
        accountIds: [account.id],
        postingMode: 'schedule',
        media: [{ key: media.key }],
        accountOptions: {},
        scheduledAt: new Date(at),
      });
      scheduled.push({ id: post.id, text, at });
    }
    const waitMs = first - Date.now() + postsPerMode * 1500 + (processingSeconds + 30) * 1000;
    await until(async () => scheduled.every((s) => watch.arrivals.has(s.text)), waitMs, 50);
    const latencies = scheduled
      .filter((s) => watch.arrivals.has(s.text))
      .map((s) => watch.arrivals.get(s.text)! - s.at)
      .sort((a, b) => a - b);
    let stagedCount = 0;
    for (const s of scheduled) {
      const view = await getPost(setup.ctx, setup.workspaceId, s.id);
      if (view.staging.some((t) => t.status === 'staged')) stagedCount++;
    }
    console.log(
      `${staging ? 'with staging   ' : 'without staging'}: ${latencies.length}/${postsPerMode} video posts arrived; ` +
        `due-time latency p50 ${fmt(percentile(latencies, 50))}, max ${fmt(latencies.at(-1) ?? Number.NaN)} ` +
        `(video ready ${processingSeconds} s after upload; staged ahead: ${stagedCount}/${postsPerMode}; early: ${latencies.filter((l) => l < 0).length})`,
    );
    if (latencies.length < postsPerMode || latencies.some((l) => l < 0)) process.exitCode = 1;
  } finally {
    watch.stop();
    await dispatcher.stop();
    await setup.close();
    await x.close();
  }
}

await run(false);
await run(true);
