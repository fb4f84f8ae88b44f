/**
 * A dispatcher without the web server: `node web/scripts/dispatcher.ts`. Reads the same
 * environment as `npm start` and runs the same dispatcher as the embedded default, for setups that
 * scale the dispatch apart from the web app (several of these on one PostgreSQL are safe), and
 * for the crash tests and benches. SIGTERM or SIGINT: stop claiming, hand back claimed posts not
 * yet started, finish those in flight, exit 0.
 */
import { ConfigError, loadConfig } from '#server/config.ts';
import { createContext } from '#server/context.ts';
import { Dispatcher } from '#server/dispatch/dispatcher.ts';
import { dispatchOptions } from '#server/dispatch/service.ts';
import { logStartupWarnings } from '#server/lifecycle/startup-warnings.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const ctx = await createContext(config);
logStartupWarnings(ctx.logger, config.warnings);
const dispatcher = new Dispatcher(ctx, {
  ...dispatchOptions(ctx),
  intervalMs: config.dispatcher.intervalMs,
});
dispatcher.start();
ctx.logger.info({ safetyNetPollMs: config.dispatcher.intervalMs }, 'dispatcher started');
// Tells a parent process (tests, benches) that claiming has begun.
if (process.send) process.send('ready');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await dispatcher.stop();
  await ctx.database.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
