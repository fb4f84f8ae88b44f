import type { SchedulerConfig } from '../config.ts';

export interface SignInProvider {
  id: string;
  name: string;
}

/** The OAuth sign-in providers this deployment has credentials for. */
export function configuredProviders(config: SchedulerConfig): SignInProvider[] {
  const providers: SignInProvider[] = [];
  if (config.github.clientId && config.github.clientSecret) providers.push({ id: 'github', name: 'GitHub' });
  if (config.google.clientId && config.google.clientSecret) providers.push({ id: 'google', name: 'Google' });
  return providers;
}
