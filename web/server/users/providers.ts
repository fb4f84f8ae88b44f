import type { SchedulerConfig } from '../config.ts';

export interface SignInProvider {
  id: string;
  name: string;
}

/** Every OAuth sign-in provider the Scheduler knows, with the settings that turn it on. */
export interface SignInProviderSetup extends SignInProvider {
  configured: boolean;
  /** The variables the operator sets to turn it on. */
  requiredEnv: string[];
  /** Optional variables worth knowing about. */
  optionalEnv: string[];
  /** The redirect (callback) URI to register with the provider. */
  callbackUrl: string;
}

export function signInProviderSetup(config: SchedulerConfig): SignInProviderSetup[] {
  const callback = (id: string) => `${config.appUrl}/api/auth/callback/${id}`;
  return [
    {
      id: 'github',
      name: 'GitHub',
      configured: Boolean(config.github.clientId && config.github.clientSecret),
      requiredEnv: ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
      optionalEnv: ['GITHUB_BASE_URL'],
      callbackUrl: callback('github'),
    },
    {
      id: 'google',
      name: 'Google',
      configured: Boolean(config.google.clientId && config.google.clientSecret),
      requiredEnv: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
      optionalEnv: [],
      callbackUrl: callback('google'),
    },
  ];
}

/** The OAuth sign-in providers this deployment has credentials for. */
export function configuredProviders(config: SchedulerConfig): SignInProvider[] {
  return signInProviderSetup(config)
    .filter((p) => p.configured)
    .map(({ id, name }) => ({ id, name }));
}

/** The known providers this deployment has no credentials for. */
export function unconfiguredProviders(config: SchedulerConfig): SignInProviderSetup[] {
  return signInProviderSetup(config).filter((p) => !p.configured);
}
