import type { AppLogger } from '#server/logger.ts';

/**
 * All of a process's start-up warnings (configuration, generated secrets, APP_URL) as one log
 * line, so they are read rather than scrolled past; docs/operations.md explains each.
 */
export function logStartupWarnings(logger: Pick<AppLogger, 'warn'>, warnings: readonly string[]): void {
  if (warnings.length === 0) return;
  const numbered = warnings.length === 1 ? warnings : warnings.map((w, i) => `(${i + 1}) ${w}`);
  logger.warn(
    { warnings: warnings.length },
    `start-up warning${warnings.length === 1 ? '' : 's'} (docs/operations.md#start-up-warnings): ${numbered.join(' ')}`,
  );
}
