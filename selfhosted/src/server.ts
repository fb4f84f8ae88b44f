import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBeforeRouting, answerClientError, setDefaultMaxReplyBytes } from '@postwave/shared';
import { keepAliveTimeoutMs } from '@postwave/shared/http/keep-alive';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import type { Services } from './services.ts';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests (and publishes) finish, bounded by `shutdownGraceMs`. */
  close(): Promise<void>;
}

/** Starts the HTTP server; `port: 0` picks a free port (tests). */
export async function startServer(config: Config, services: Services): Promise<RunningServer> {
  setDefaultMaxReplyBytes(config.maxReplyBytes);
  const app = createApp(config, services);
  // Node's own Host check answers without a body: answerBeforeRouting answers it, and odd request
  // targets, as problems.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    if (!answerBeforeRouting(request, response)) app(request, response);
  });
  // A request Node cannot parse (oversize headers and the like) is a 400 problem, not a bare 431.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Uploads of hundreds of MB on slow links must not be cut off by Node's default request timeout.
  server.requestTimeout = 0;
  // Idle connections outlive a proxy's (keep-alive.ts); headers must come within a second more.
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.headersTimeout = keepAliveTimeoutMs + 1_000;
  const { port } = server.address() as AddressInfo;
  const host = config.host && config.host !== '0.0.0.0' && config.host !== '::' ? config.host : '127.0.0.1';
  return {
    server,
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => closeGracefully(server, services, config.shutdownGraceMs, services.logger),
  };
}

async function closeGracefully(server: Server, services: Services, timeoutMs: number, logger: Logger) {
  // New publishes on connections still open are refused (503) from here on; running ones finish.
  services.publishing.stopAccepting();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections become idle as their last response goes out: close them as they do.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 50);
  const finished = Promise.all([closed, services.publishing.drain()]);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([finished, timedOut]);
  clearTimeout(timer);
  clearInterval(sweeper);
  if (outcome === 'timeout') {
    logger.warn(
      { inFlight: services.publishing.inFlight },
      'shutdown timed out; closing remaining connections',
    );
  }
  server.closeAllConnections();
  await services.webhook?.stop();
  // S3 keeps pooled sockets and temp-file timers; local disk has nothing to release.
  await (services.storage as { close?: () => Promise<void> }).close?.();
}
