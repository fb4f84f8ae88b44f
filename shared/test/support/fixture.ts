import { after, before, beforeEach } from 'node:test';

/**
 * What a test file shares (a fake platform, a publisher, an account): built by `start` before
 * the file's tests, `reset` before each test, `stop` after them all. The returned object is
 * filled in by `before`, so tests read it as `fx.fake`, `fx.publisher`.
 */
export function useFixture<T extends object>(
  start: () => Promise<T>,
  hooks: { stop: (fixture: T) => unknown; reset?: (fixture: T) => void },
): T {
  const fixture = {} as T;
  before(async () => {
    Object.assign(fixture, await start());
  });
  after(async () => {
    await hooks.stop(fixture);
  });
  if (hooks.reset) beforeEach(() => hooks.reset!(fixture));
  return fixture;
}
