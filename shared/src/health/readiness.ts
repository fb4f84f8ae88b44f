import { withDeadline } from '../http/deadline.ts';

/** One dependency a server needs to do its work; throws (with a safe message) when it cannot. */
export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  status: 200 | 503;
  body: {
    status: 'ready' | 'unavailable';
    /** Every check by name: `ok` or `failed`. */
    checks: Record<string, 'ok' | 'failed'>;
    /** The failing checks' names, first one first (absent when ready). */
    failed?: string[];
    /** One line per failing check, e.g. "storage: not writable"; never a secret or a stack. */
    detail?: string;
  };
}

/** The liveness body both servers answer at `/health` while the process serves. */
export const livenessBody = { status: 'ok' } as const;

/** Runs every check in order, each within `timeoutMs`, and names the ones that failed. */
export async function runReadiness(
  checks: ReadonlyArray<readonly [name: string, check: ReadinessCheck]>,
  timeoutMs = 3_000,
): Promise<ReadinessReport> {
  const results: Record<string, 'ok' | 'failed'> = {};
  const failed: string[] = [];
  const details: string[] = [];
  for (const [name, check] of checks) {
    const deadline = withDeadline(undefined, timeoutMs);
    try {
      await Promise.race([
        check(),
        new Promise<never>((_, reject) =>
          deadline.signal.addEventListener(
            'abort',
            () => reject(new Error(`no answer within ${timeoutMs} ms`)),
            {
              once: true,
            },
          ),
        ),
      ]);
      results[name] = 'ok';
    } catch (error) {
      results[name] = 'failed';
      failed.push(name);
      details.push(`${name}: ${safeMessage(error)}`);
    } finally {
      deadline.dispose();
    }
  }
  if (failed.length === 0) return { status: 200, body: { status: 'ready', checks: results } };
  return {
    status: 503,
    body: { status: 'unavailable', checks: results, failed, detail: details.join('; ') },
  };
}

/** Connection strings and keys can hide in driver messages: keep the first line, without URLs. */
function safeMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')[0]!
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
    .slice(0, 200);
}
