'use client';

import { useRouter } from 'next/navigation';
import { ConfirmButton } from '../confirm-button.tsx';
import { api } from '../lib/api.ts';

export interface SignInMethodsProps {
  methods: { password: boolean; identities: { provider: string; createdAt: string }[] };
  providers: { id: string; name: string }[];
  /** Providers this server has no credentials for, with the variables that turn them on. */
  unavailable?: { id: string; name: string; requiredEnv: string[] }[];
  emailVerified: boolean;
  linked?: string;
  linkError?: string;
}

const linkErrors: Record<string, string> = {
  linked_elsewhere: 'That account is already linked to another Postwave user.',
  verify_email_first: 'Confirm your e-mail address first, then link again.',
  email_in_use: 'That account could not be linked. Try again from this page.',
  email_unverified: 'That account could not be linked. Try again from this page.',
};

/**
 * The ways this user can sign in. Linking is explicit: only from here, while signed in, and only
 * after the e-mail address is confirmed; the last way in cannot be removed.
 */
export function SignInMethods({
  methods,
  providers,
  unavailable = [],
  emailVerified,
  linked,
  linkError,
}: SignInMethodsProps) {
  const router = useRouter();
  const ways = methods.identities.length + (methods.password ? 1 : 0);
  const providerName = (id: string) => providers.find((p) => p.id === id)?.name ?? id;
  const rows = [
    ...providers.map((p) => p.id),
    ...methods.identities.map((i) => i.provider).filter((id) => !providers.some((p) => p.id === id)),
  ];
  return (
    <div className="stack">
      {linked && !linkError && methods.identities.some((i) => i.provider === linked) && (
        <p className="alert alert-ok" role="status">
          {providerName(linked)} is linked: you can now sign in with it.
        </p>
      )}
      {linkError && (
        <p className="alert alert-error" role="alert">
          {linkErrors[linkError] ?? 'That account could not be linked.'}
        </p>
      )}
      <table className="table">
        <tbody>
          <tr>
            <td>Password</td>
            <td>
              {methods.password ? (
                'Set'
              ) : (
                <span className="muted">
                  Not set. <a href="/forgot-password">Set one with a reset link</a>.
                </span>
              )}
            </td>
            <td />
          </tr>
          {rows.map((id) => {
            const identity = methods.identities.find((i) => i.provider === id);
            const configured = providers.some((p) => p.id === id);
            return (
              <tr key={id}>
                <td>{providerName(id)}</td>
                <td>{identity ? 'Linked' : <span className="muted">Not linked</span>}</td>
                <td style={{ textAlign: 'right' }}>
                  {identity ? (
                    ways <= 1 ? (
                      <span className="muted">Your only way to sign in</span>
                    ) : (
                      <ConfirmButton
                        label="Unlink"
                        className="btn btn-sm btn-ghost"
                        title={`Unlink ${providerName(id)}?`}
                        body={`You will no longer be able to sign in with ${providerName(id)}.`}
                        confirmLabel="Unlink"
                        onConfirm={async () => {
                          await api('DELETE', `/api/auth/sign-in-methods/${encodeURIComponent(id)}`);
                          router.refresh();
                        }}
                      />
                    )
                  ) : configured && emailVerified ? (
                    <form method="post" action={`/api/auth/sign-in-methods/${encodeURIComponent(id)}`}>
                      <button type="submit" className="btn btn-sm">
                        Link {providerName(id)}
                      </button>
                    </form>
                  ) : configured ? (
                    <span className="muted">Confirm your e-mail address to link</span>
                  ) : null}
                </td>
              </tr>
            );
          })}
          {unavailable
            .filter((p) => !rows.includes(p.id))
            .map((p) => (
              <tr key={p.id} data-testid="sign-in-unavailable">
                <td>{p.name}</td>
                <td colSpan={2}>
                  <span className="muted">
                    Not available on this server: the operator sets {p.requiredEnv.join(' and ')} (
                    <a href={`/setup#${p.id}`}>how to set it up</a>).
                  </span>
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}
