import { join } from 'node:path';
import { type ConfigOf, type Env, envConfig, envConfigMessage, weakTokenWarning } from '@postwave/shared';
import type { z } from 'zod';
import { schedulerSettings } from './config/settings.ts';
import { resolveFfmpeg } from './media/ffmpeg.ts';
import type { EncryptionKey } from './security/encryption.ts';
import { generatedSecrets } from './security/generated-secrets.ts';

export type { Env } from '@postwave/shared';

export { schedulerSettings };

export interface MailConfig {
  /** An smtp:// or smtps:// URL, or the host/port/credentials it was built from. */
  transport: string | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } };
  from: string;
}

type Settings = ConfigOf<typeof schedulerSettings>;

/** The settings with the values derived from several variables filled in. */
const SchedulerEnv = envConfig(schedulerSettings).transform((settings, ctx) => {
  const { smtp, secretsDir, appUrl, retiredLoopbackFlag, ...rest } = settings;
  const url = appUrl ?? `http://localhost:${settings.port}`;
  const warnings: string[] = [];
  if (!appUrl || loopbackHosts.has(new URL(url).hostname)) warnings.push(appUrlWarning(url, Boolean(appUrl)));
  for (const [name, value] of [
    ['DISPATCH_SECRET', settings.dispatchSecret],
    ['METRICS_TOKEN', settings.metricsToken],
  ] as const) {
    const weak = weakTokenWarning(name, value);
    if (weak) warnings.push(weak);
  }
  if (retiredLoopbackFlag)
    warnings.push(
      'POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK is no longer read: list the hosts in ALLOW_PRIVATE_HOSTS.',
    );
  return {
    ...rest,
    appUrl: url,
    secretsDir: secretsDir ?? join(settings.dataDir, 'secrets'),
    mail: mailConfig(smtp, url, ctx),
    /** Short start-up warnings, logged once as one summary (lifecycle/process.ts). */
    warnings,
  };
});

/** Everything the Scheduler reads from its environment, validated once at start. */
export type SchedulerConfig = Omit<
  z.output<typeof SchedulerEnv>,
  'authSecret' | 'credentialsKey' | 'previousCredentialsKeys' | 'ffmpegPath'
> & {
  authSecret: string;
  /** The ffmpeg that makes video posters (FFMPEG_PATH, or found on PATH); none: videos get no poster. */
  ffmpeg: string | undefined;
  credentialsKeys: { current: EncryptionKey; previous: EncryptionKey[] };
  /** The raw environment, for the SDK's own readers (platform base URLs, OBJECT_STORAGE_*). */
  env: Env;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment; throws ConfigError naming every bad variable. Secrets
 * that are unset (AUTH_SECRET, CREDENTIALS_ENCRYPTION_KEY) are generated once and kept under
 * SECRETS_DIR (server/security/generated-secrets.ts), so the embedded default works out of the box.
 */
export function loadConfig(env: Env): SchedulerConfig {
  const parsed = SchedulerEnv.safeParse(env);
  if (!parsed.success) throw new ConfigError(envConfigMessage(parsed.error));
  const { authSecret, credentialsKey, previousCredentialsKeys, ffmpegPath, ...config } = parsed.data;
  const ffmpeg = resolveFfmpeg(ffmpegPath, env.PATH);
  if ('error' in ffmpeg) throw new ConfigError(`Invalid configuration:\n  FFMPEG_PATH: ${ffmpeg.error}`);
  const generated = generatedSecrets(config, { authSecret, credentialsKey });
  return {
    ...config,
    authSecret: generated.authSecret,
    credentialsKeys: { current: generated.credentialsKey, previous: previousCredentialsKeys },
    ffmpeg: ffmpeg.path,
    warnings: [...generated.warnings, ...config.warnings],
    env,
  };
}

function mailConfig(smtp: Settings['smtp'], appUrl: string, ctx: z.RefinementCtx): MailConfig | undefined {
  const from = smtp.from ?? `Postwave <no-reply@${new URL(appUrl).hostname}>`;
  if (smtp.url) return { transport: smtp.url, from };
  if (!smtp.host) return undefined;
  if ((smtp.user === undefined) !== (smtp.password === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_USER'], message: 'and SMTP_PASSWORD must be set together' });
    return undefined;
  }
  return {
    transport: {
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure ?? smtp.port === 465,
      ...(smtp.user && smtp.password ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
    },
    from,
  };
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/*
 * APP_URL is the one address of the app: media URLs, presigned upload URLs and OAuth redirects
 * are built from it. A browser at another origin (127.0.0.1 while APP_URL says localhost) is
 * refused direct uploads by CORS and loses the session on OAuth callbacks (http/app-origin.ts).
 */
function appUrlWarning(appUrl: string, explicit: boolean): string {
  const { origin, hostname } = new URL(appUrl);
  const other = hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return `${explicit ? `APP_URL is ${origin}` : 'APP_URL is not set'}: open the app at exactly ${origin} (not ${other}).`;
}
