import type { InputHTMLAttributes, ReactNode } from 'react';
import { ActionButton } from '../action-button.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';

/**
 * The auth forms' pieces (sign-in, sign-up, password reset): a labelled field whose error sits on
 * it and is read out (`FieldError`), the new-password field whose hint the error replaces, and the
 * submit button that keeps the focus while pending (`ActionButton`, `aria-busy`).
 */

/** A labelled input named and id'd `id`, with its error; `after` follows it (a link in Tab order). */
export function AuthField({
  id,
  label,
  error,
  after,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> & {
  id: string;
  label: string;
  error?: string | undefined;
  after?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input {...input} id={id} name={id} className="input" {...invalidProps(`${id}-error`, error)} />
      <FieldError id={`${id}-error`}>{error}</FieldError>
      {after}
    </div>
  );
}

/** A new password (at least 10 characters): the hint, or in its place the error that replaces it. */
export function NewPasswordField({ label, error }: { label: string; error?: string | undefined }) {
  return (
    <div className="field">
      <label htmlFor="password">{label}</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        className="input"
        aria-invalid={error ? true : undefined}
        // The hint, or in its place the error (an alert, read out as it appears).
        aria-describedby="password-hint"
      />
      {error ? (
        <FieldError id="password-hint">{error}</FieldError>
      ) : (
        <p className="hint" id="password-hint">
          At least 10 characters.
        </p>
      )}
    </div>
  );
}

/** The form's submit: focusable and busy while pending, saying so. */
export function AuthSubmit({
  pending,
  label,
  busyLabel,
}: {
  pending: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <ActionButton
      type="submit"
      className="btn btn-primary btn-block"
      blocked={pending}
      aria-busy={pending || undefined}
    >
      {pending ? busyLabel : label}
    </ActionButton>
  );
}
