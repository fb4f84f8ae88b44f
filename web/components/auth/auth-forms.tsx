'use client';

import Link from 'next/link';
import { useActionState, useEffect, useState } from 'react';
import { type FormState, signInAction, signUpAction } from '../../server/ui/actions.ts';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p className="field-error" id={id}>
      {message}
    </p>
  ) : null;
}

export function SignInForm({ next }: { next?: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(signInAction, {});
  return (
    <form action={action} className="stack" noValidate>
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

export function SignUpForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(signUpAction, {});
  const [timezone, setTimezone] = useState('UTC');
  useEffect(() => setTimezone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'), []);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="stack" noValidate>
      {state.error && !Object.keys(errors).length && (
        <p className="alert alert-error" role="alert">
          {state.error}
        </p>
      )}
      <input type="hidden" name="timezone" value={timezone} />
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
