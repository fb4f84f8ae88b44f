import type { Metadata } from 'next';
import Link from 'next/link';
import { CenteredCard } from '#components/consent-card.tsx';
import { Icon } from '#components/icons.tsx';
import { platformManifests } from '#components/lib/platforms.ts';
import { configuredOAuthPlatforms } from '#server/accounts/oauth-availability.ts';
import { getConfig } from '#server/context.ts';
import { signInProviderSetup } from '#server/users/providers.ts';

export const metadata: Metadata = { title: 'Server setup' };

/**
 * What this server has switched on, and how an operator switches on the rest: every sign-in
 * provider and every platform connected through OAuth, the variables each needs and the redirect
 * URI to register. Public like the sign-in page (which already shows the configured providers);
 * it shows names of settings only, never their values. A link to a provider or platform that is
 * not set up lands here (`?missing=<id>`) instead of on an error document.
 */
export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const config = getConfig();
  const params = await searchParams;
  const providers = signInProviderSetup(config);
  const configuredPlatforms = configuredOAuthPlatforms(config.env);
  const oauthPlatforms = platformManifests.flatMap((m) =>
    m.connect.method === 'oauth' ? [{ manifest: m, connect: m.connect }] : [],
  );
  const missingId = [params.missing].flat()[0];
  // Only a known id is named: the text comes from here, never from the URL.
  const missing =
    providers.find((p) => p.id === missingId && !p.configured)?.name ??
    oauthPlatforms.find((p) => p.manifest.id === missingId && !configuredPlatforms.includes(p.manifest.id))
      ?.manifest.name;
  const status = (on: boolean) =>
    on ? (
      <span className="badge badge-ok">
        <Icon name="check" size={14} />
        Enabled
      </span>
    ) : (
      <span className="badge badge-draft">Not set up</span>
    );
  return (
    <CenteredCard wide>
      <header>
        <h1>Server setup</h1>
        <p className="muted">
          Which sign-in methods and platforms this Postwave server offers, and how its operator turns on the
          others.
        </p>
      </header>
      {missing && (
        <p className="alert alert-info" role="status" data-testid="setup-missing">
          {missing} is not set up on this server yet. Whoever runs this server can turn it on with the
          settings below; until then, use one of the enabled options.
        </p>
      )}
      <section className="stack setup-section" aria-labelledby="setup-sign-in">
        <h2 id="setup-sign-in">Sign-in methods</h2>
        <p>E-mail and password always work. GitHub and Google sign-in need an OAuth app of this server:</p>
        <ul className="setup-list">
          {providers.map((p) => (
            <li key={p.id} id={p.id} className="setup-item">
              <div className="row">
                <strong>{p.name}</strong>
                {status(p.configured)}
              </div>
              {!p.configured && (
                <p className="small">
                  Set {envList(p.requiredEnv)}
                  {p.optionalEnv.length > 0 && <> (and optionally {envList(p.optionalEnv)})</>} and restart.
                  Register <code>{p.callbackUrl}</code> as the redirect URI.
                </p>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section className="stack setup-section" aria-labelledby="setup-mail" id="mail">
        <h2 id="setup-mail">E-mail</h2>
        <div className="row">
          <strong>Sending e-mail (SMTP)</strong>
          {status(Boolean(config.mail))}
        </div>
        {config.mail ? (
          <p className="small">
            Confirmation and password-reset links are e-mailed from <code>{config.mail.from}</code>.
          </p>
        ) : (
          <p className="small" data-testid="setup-mail-off">
            Without it nobody receives a confirmation or password-reset e-mail: the links are written to the
            server’s log instead (level <code>info</code>, fields <code>verifyLink</code> and{' '}
            <code>resetLink</code>), for you to pass on. Set <code>SMTP_URL</code> (such as{' '}
            <code>smtp://user:password@mail.example.com:587</code>) or {envList(['SMTP_HOST', 'SMTP_PORT'])}{' '}
            with {envList(['SMTP_USER', 'SMTP_PASSWORD'])}, optionally <code>MAIL_FROM</code>, and restart.
            See <code>docs/scheduler.md</code> (Password reset).
          </p>
        )}
      </section>
      <section className="stack setup-section" aria-labelledby="setup-platforms">
        <h2 id="setup-platforms">Platforms connected by signing in</h2>
        <p>
          Platforms connected with a token or password (such as a bot token or an app password) need no server
          setup. These sign in with the platform, so the server needs an app registered there:
        </p>
        <ul className="setup-list">
          {oauthPlatforms.map(({ manifest, connect }) => {
            const on = configuredPlatforms.includes(manifest.id);
            return (
              <li key={manifest.id} id={manifest.id} className="setup-item">
                <div className="row">
                  <strong>{manifest.name}</strong>
                  {status(on)}
                </div>
                {!on && (
                  <p className="small">
                    Set {envList(connect.requiredEnv)} and restart. Register{' '}
                    <code>{`${config.appUrl}/api/v1/accounts/connect/${manifest.id}/callback`}</code> as the
                    redirect URI. Details: <code>{manifest.docs}</code> in the Postwave repository.
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <p className="small muted">
        Every setting is described in <code>docs/scheduler.md</code> and <code>docs/operations.md</code>. The
        HTTP API is documented at <a href="/docs">/docs</a>.
      </p>
      <p className="small">
        <Link href="/signin" className="icon-link">
          <Icon name="arrowLeft" size={16} />
          Back to sign in
        </Link>
      </p>
    </CenteredCard>
  );
}

function envList(names: string[]) {
  return names.map((name, i) => (
    <span key={name}>
      {i > 0 && (i === names.length - 1 ? ' and ' : ', ')}
      <code>{name}</code>
    </span>
  ));
}
