import { type Env, platformModules } from '@postwave/shared';

/**
 * Ids of the OAuth platforms this server can start a connect flow for: the platform's connector
 * says so, or (for a platform without a connector yet) every variable its manifest requires is set.
 */
export function configuredOAuthPlatforms(env: Env): string[] {
  return platformModules
    .filter((module) => {
      const { connect } = module.manifest;
      if (connect.method !== 'oauth') return false;
      if (module.createConnector) return module.createConnector(env).configured;
      return connect.requiredEnv.every((name) => Boolean(env[name]?.trim()));
    })
    .map((module) => module.id);
}
