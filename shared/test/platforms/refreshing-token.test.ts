import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../src/errors.ts';
import { RefreshingToken, RefreshLocks, type RenewedTokens } from '../../src/platforms/refreshing-token.ts';

const hour = 3_600_000;
const t0 = Date.parse('2026-11-25T12:00:00Z');

/** A platform that rotates: each refresh token works once and answers a new pair living an hour. */
function rotatingPlatform() {
  const valid = new Set(['rA']);
  const spent: string[] = [];
  let n = 0;
  return {
    spent,
    refresh: async (refreshToken: string, at: number): Promise<RenewedTokens> => {
      if (!valid.delete(refreshToken)) throw new PlatformError('needs_reconnect', 'refresh token refused');
      spent.push(refreshToken);
      n++;
      valid.add(`r${n}`);
      return { accessToken: `a${n}`, refreshToken: `r${n}`, expiresAt: new Date(at + hour).toISOString() };
    },
  };
}

describe('RefreshingToken over rotating refresh tokens', () => {
  it('never spends a refresh token twice: holders of a spent one follow the rotations', async () => {
    const platform = rotatingPlatform();
    const locks = new RefreshLocks();
    let clock = t0;
    const holder = () =>
      new RefreshingToken(
        { accessToken: 'aA', refreshToken: 'rA', expiresAt: new Date(t0 - 1).toISOString() },
        { lockKey: 'user', platformName: 'Test', locks, refresh: (token) => platform.refresh(token, clock) },
      );
    // The accounts file's credentials, read again at every publish (the self-hosted server).
    assert.equal(await holder().get(clock), 'a1');
    assert.equal(await holder().get(clock), 'a1', 'the rotation is reused while fresh');
    clock = t0 + 2 * hour;
    assert.equal(await holder().get(clock), 'a2', 'renewed from the latest refresh token, not rA');
    assert.deepEqual(platform.spent, ['rA', 'r1']);
    // Concurrent holders queue: one renewal.
    clock = t0 + 5 * hour;
    const both = await Promise.all([holder().get(clock), holder().get(clock)]);
    assert.deepEqual(both, ['a3', 'a3']);
    assert.deepEqual(platform.spent, ['rA', 'r1', 'r2']);
  });

  it('hands renewed credentials back with the rest kept, and renews once on a refusal', async () => {
    const platform = rotatingPlatform();
    const stored: Record<string, unknown>[] = [];
    const token = new RefreshingToken(
      {
        accessToken: 'aA',
        refreshToken: 'rA',
        expiresAt: new Date(Date.now() + hour).toISOString(),
        userId: 'u1',
      },
      {
        lockKey: 'user',
        platformName: 'Test',
        locks: new RefreshLocks(),
        refresh: (t) => platform.refresh(t, Date.now()),
        onRefreshed: (fresh) => void stored.push(fresh),
      },
    );
    const seen: string[] = [];
    const answer = await token.use(async (accessToken) => {
      seen.push(accessToken);
      if (accessToken === 'aA') throw new PlatformError('needs_reconnect', 'refused', { status: 401 });
      return 'ok';
    });
    assert.equal(answer, 'ok');
    assert.deepEqual(seen, ['aA', 'a1']);
    assert.deepEqual(
      [stored[0]!.accessToken, stored[0]!.refreshToken, stored[0]!.userId],
      ['a1', 'r1', 'u1'],
    );
    const refusedAgain = token.use(async () => {
      throw new PlatformError('needs_reconnect', 'refused', { status: 401 });
    });
    await assert.rejects(refusedAgain, { code: 'needs_reconnect' });
  });

  it('follows a rotation another process made: read from the store before renewing, and after a refusal', async () => {
    // Two processes (Scheduler instances) share one store but not their in-memory rotations.
    const platform = rotatingPlatform();
    let store: Record<string, unknown> = { accessToken: 'aA', refreshToken: 'rA', expiresAt: t0 - 1 };
    const processToken = (credentials: Record<string, unknown>, locks: RefreshLocks, clock: number) =>
      new RefreshingToken(credentials as { accessToken: string; refreshToken: string; expiresAt: number }, {
        lockKey: 'user',
        platformName: 'Test',
        locks,
        refresh: (token) => platform.refresh(token, clock),
        onRefreshed: (fresh) => {
          store = fresh;
        },
        stored: async () => store,
      });
    const first = new RefreshLocks();
    const second = new RefreshLocks();
    const readBySecond = { ...store };
    // The first process renews (rA → r1); the second still holds what it read before: rA.
    assert.equal(await processToken({ ...store }, first, t0).get(t0), 'a1');
    // Still fresh in the store: the second process uses it rather than spending rA again.
    assert.equal(await processToken(readBySecond, second, t0).get(t0), 'a1');
    assert.deepEqual(platform.spent, ['rA']);
    // Expired in the store too: renewed from the stored refresh token, never from rA.
    const later = t0 + 2 * hour;
    assert.equal(await processToken(readBySecond, new RefreshLocks(), later).get(later), 'a2');
    assert.deepEqual(platform.spent, ['rA', 'r1']);

    // Spent by the other process after this one read the store: the refusal waits for the
    // successor to be stored, then renews from it.
    const third = new RefreshLocks();
    const held = { ...store, expiresAt: later - 1 };
    const racing = new RefreshingToken(
      held as { accessToken: string; refreshToken: string; expiresAt: number },
      {
        lockKey: 'user',
        platformName: 'Test',
        locks: third,
        refresh: async (token) => {
          if (token === 'r2') {
            // The other process spends r2 first, and stores r3 a moment later.
            const rotated = await platform.refresh('r2', later);
            setTimeout(() => {
              store = { ...rotated, expiresAt: later - 1 };
            }, 100);
          }
          return platform.refresh(token, later);
        },
        stored: async () => store,
      },
    );
    assert.equal(await racing.get(later), 'a4');
    assert.deepEqual(platform.spent, ['rA', 'r1', 'r2', 'r3']);
  });
});
