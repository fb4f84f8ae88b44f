import { AccountsFileError } from './accounts.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { startServer } from './server.ts';
import { createServices } from './services.ts';

/** Entry point: configuration → services → HTTP server, plus reload and shutdown signals. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    return fail(error);
  }
  const logger = createLogger(config.logLevel);
  let services: ReturnType<typeof createServices>;
  try {
    services = createServices(config, logger);
  } catch (error) {
    return fail(error);
  }
  if (config.warnings.length > 0) logger.warn(`start-up warnings: ${config.warnings.join(' ')}`);
  const running = await startServer(config, services);
  logger.info(
    {
      port: running.port,
      publicUrl: config.publicUrl,
      storage: services.storage.kind,
      accounts: services.accounts.configured ? services.accounts.size : 'not configured',
      platforms: services.publishers.ids(),
    },
    'postwave self-hosted server listening',
  );

  process.on('SIGHUP', () => {
    services.accounts.reload().then(
      (count) => logger.info({ accounts: count }, 'accounts file reloaded'),
      (error: unknown) =>
        logger.error(
          { reason: (error as Error).message },
          'accounts file reload failed; keeping the previous accounts',
        ),
    );
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      logger.warn({ signal, inFlight: services.publishing.inFlight }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info(
      { signal, inFlight: services.publishing.inFlight, graceMs: config.shutdownGraceMs },
      'shutting down: finishing in-flight publishes',
    );
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function fail(error: unknown): never {
  if (error instanceof ConfigError || error instanceof AccountsFileError) {
    process.stderr.write(`postwave: ${error.message}\n`);
  } else {
    process.stderr.write(`postwave: failed to start: ${(error as Error)?.message ?? String(error)}\n`);
  }
  process.exit(1);
}

await main();
