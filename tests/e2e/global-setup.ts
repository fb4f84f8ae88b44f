import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIsStale } from '../../web/scripts/next-build.ts';

/** Builds the Scheduler when the build is missing or stale, under the shared build lock. */
export default async function globalSetup(): Promise<void> {
  if (!buildIsStale()) return;
  const script = fileURLToPath(new URL('../../web/scripts/build.ts', import.meta.url));
  execFileSync('flock', ['/tmp/postwave-next-build.lock', process.execPath, script], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
}
