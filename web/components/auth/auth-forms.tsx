'use client';

import Link from 'next/link';
import { type FormEvent, useEffect, useState } from 'react';
import type { FormAction } from '#server/ui/schema.ts';
import { ApiError, api, describeError } from '../lib/api.ts';
import { useKeptForm } from '../lib/use-kept-form.ts';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

/** `signIn`: the server action that checks the password (server/ui/actions.ts), given by the page. */
export function SignInForm({ next, signIn }: { next?: string; signIn: FormAction }) {
  const { state, pending, form } = useKeptForm(signIn);
  return (
    <form {...form} className="stack" noValidate>
      {state.error && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="next" value={next ?? '/compose'} />
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required className="input" />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="input"
        />
        {/* After the field, not beside its label: the Tab order goes Email, Password, then this link. */}
        <Link href="/forgot-password" className="label-link">
          Forgot password?
        </Link>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="auth-foot">
        New to Postwave? <Link href="/signup">Create an account</Link>
      </p>
    </form>
  );
}

/** `signUp`: the server action that creates the account (server/ui/actions.ts), given by the page. */
/** `next`: where to go once signed up (an invitation's page); `email`: the invited address, filled in. */
export function SignUpForm({ signUp, next, email }: { signUp: FormAction; next?: string; email?: string }) {
  const { state, pending, form } = useKeptForm(signUp);
  const [timezone, setTimezone] = useState('UTC');
  useEffect(() => setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'), []);
  const errors = state.fieldErrors ?? {};
  return (
    <form {...form} className="stack" noValidate>
      {state.error && !Object.keys(errors).length && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="timezone" value={timezone} />
      {next && <input type="hidden" name="next" value={next} />}
      <div className="field">
        <label htmlFor="name">Name</label>
        <input id="name" name="name" autoComplete="name" className="input" placeholder="Optional" />
      </div>
      <div className="field">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={email}
          className="input"
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? 'email-error' : undefined}
        />
        <FieldError id="email-error" message={errors.email} />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          className="input"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby="password-hint"
        />
        {errors.password ? (
          <FieldError id="password-hint" message={errors.password} />
        ) : (
          <p className="hint" id="password-hint">
            At least 10 characters.
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? 'Creating your account…' : 'Create account'}
      </button>
      <p className="auth-foot">
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </form>
  );
}

/** Asks for a reset link; the answer is the same whether or not the email has an account. */
export function ForgotPasswordForm({
  lifetime,
  mailConfigured,
}: {
  lifetime: string;
  mailConfigured: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!email) {
      setError('Enter the email you signed up with.');
      return;
    }
    setPending(true);
    setError(undefined);
    try {
      const { message } = await api<{ message: string }>('POST', '/api/auth/password-reset', { email });
      setSent(message);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setPending(false);
    }
  }
  if (sent) {
    return (
      <div className="stack">
        <p className="alert alert-ok" role="status">
          {sent}
        </p>
        <p className="muted">
          {mailConfigured
            ? `The link works once, for ${lifetime}. No e-mail? Check your spam folder.`
            : `The link works once, for ${lifetime}.`}
        </p>
        <p className="auth-foot">
          <Link href="/signin">Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="stack" noValidate>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required className="input" />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? 'Sending…' : mailConfigured ? 'Send reset link' : 'Ask for a reset link'}
      </button>
      <p className="auth-foot">
        Remembered it? <Link href="/signin">Sign in</Link>
      </p>
    </form>
  );
}

/** Sets a new password with the token from a reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [passwordError, setPasswordError] = useState<string | undefined>();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password.length < 10) {
      setPasswordError('Use at least 10 characters.');
      return;
    }
    if (password !== String(form.get('confirm') ?? '')) {
      setPasswordError('The two passwords do not match.');
      return;
    }
    setPending(true);
    setError(undefined);
    setPasswordError(undefined);
    try {
      await api('POST', '/api/auth/password-reset/confirm', { token, password });
      setDone(true);
    } catch (e) {
      const field = e instanceof ApiError ? e.errors.find((i) => i.path === 'password') : undefined;
      if (field) setPasswordError(field.message);
      else setError(describeError(e));
    } finally {
      setPending(false);
    }
  }
  if (done) {
    return (
      <div className="stack">
        <p className="alert alert-ok" role="status">
          Your password has been changed. Other browsers signed in to your account have been signed out.
        </p>
        <Link href="/signin" className="btn btn-primary btn-block">
          Sign in with your new password
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="stack" noValidate>
      {error && (
        <div className="alert alert-error" role="alert">
          {error} <Link href="/forgot-password">Ask for a new link</Link>.
        </div>
      )}
      <div className="field">
        <label htmlFor="password">New password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          className="input"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby="password-hint"
        />
        {passwordError ? (
          <FieldError id="password-hint" message={passwordError} />
        ) : (
          <p className="hint" id="password-hint">
            At least 10 characters.
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="confirm">Repeat the new password</label>
        <input
          id="confirm"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          className="input"
        />
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={pending}>
        {pending ? 'Saving…' : 'Set new password'}
      </button>
    </form>
  );
}
