'use client';

import Link from 'next/link';
import { type FormEvent, useEffect, useState } from 'react';
import type { FormAction } from '#server/ui/schema.ts';
import { ApiError, api, describeError } from '../lib/api.ts';
import { useKeptForm } from '../lib/use-kept-form.ts';
import { AuthField, AuthSubmit, NewPasswordField } from './auth-fields.tsx';

/** Sign-up's fields in their order: after a refusal the first one marked takes the focus. */
const signUpFields = ['name', 'email', 'password'] as const;

/** `signIn`: the server action that checks the password (server/ui/actions.ts), given by the page. */
export function SignInForm({ next, signIn }: { next?: string; signIn: FormAction }) {
  const { state, pending, form } = useKeptForm(signIn);
  // An empty field is said at that field, before anything is sent (the server's own "Enter your
  // email and password." is for a browser without JavaScript); the first one takes the focus.
  const [missing, setMissing] = useState<{ email?: string; password?: string }>({});
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const empty = {
      ...(String(data.get('email') ?? '').trim() ? {} : { email: 'Enter your email.' }),
      ...(String(data.get('password') ?? '') ? {} : { password: 'Enter your password.' }),
    };
    setMissing(empty);
    if (empty.email || empty.password) {
      event.preventDefault();
      document.getElementById(empty.email ? 'email' : 'password')?.focus();
      return;
    }
    form.onSubmit(event);
  };
  return (
    <form {...form} onSubmit={onSubmit} className="stack" noValidate>
      {state.error && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="next" value={next ?? '/compose'} />
      <AuthField id="email" label="Email" type="email" autoComplete="email" required error={missing.email} />
      <AuthField
        id="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={missing.password}
        after={
          // After the field, not beside its label: the Tab order goes Email, Password, then this link.
          <Link href="/forgot-password" className="label-link">
            Forgot password?
          </Link>
        }
      />
      <AuthSubmit pending={pending} label="Sign in" busyLabel="Signing in…" />
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
  // A refusal marks its fields: the first one takes the focus (the pressed button kept it while
  // pending), and its message, an alert, is read out.
  useEffect(() => {
    const first = signUpFields.find((field) => state.fieldErrors?.[field]);
    if (first) document.getElementById(first)?.focus();
  }, [state]);
  return (
    <form {...form} className="stack" noValidate>
      {/* The summary, unless a field below says it (an error on another field is said here). */}
      {state.error && !signUpFields.some((field) => errors[field]) && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="timezone" value={timezone} />
      {next && <input type="hidden" name="next" value={next} />}
      <AuthField id="name" label="Name" autoComplete="name" placeholder="Optional" error={errors.name} />
      <AuthField
        id="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        defaultValue={email}
        error={errors.email}
      />
      <NewPasswordField label="Password" error={errors.password} />
      <AuthSubmit pending={pending} label="Create account" busyLabel="Creating your account…" />
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
  const [emailError, setEmailError] = useState<string | undefined>();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    if (!email) {
      // Said at the field, which takes the focus (the button kept it: not disabled).
      setEmailError('Enter the email you signed up with.');
      setError(undefined);
      document.getElementById('email')?.focus();
      return;
    }
    setPending(true);
    setError(undefined);
    setEmailError(undefined);
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
      <AuthField id="email" label="Email" type="email" autoComplete="email" required error={emailError} />
      <AuthSubmit
        pending={pending}
        label={mailConfigured ? 'Send reset link' : 'Ask for a reset link'}
        busyLabel="Sending…"
      />
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
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const refuse = (message: string) => {
      setPasswordError(message);
      document.getElementById('password')?.focus();
    };
    if (password.length < 10) return refuse('Use at least 10 characters.');
    if (password !== String(form.get('confirm') ?? '')) return refuse('The two passwords do not match.');
    setPending(true);
    setError(undefined);
    setPasswordError(undefined);
    try {
      await api('POST', '/api/auth/password-reset/confirm', { token, password });
      setDone(true);
    } catch (e) {
      const field = e instanceof ApiError ? e.errors.find((i) => i.path === 'password') : undefined;
      if (field) refuse(field.message);
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
      <NewPasswordField label="New password" error={passwordError} />
      <AuthField
        id="confirm"
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        required
      />
      <AuthSubmit pending={pending} label="Set new password" busyLabel="Saving…" />
    </form>
  );
}
