import type { ReactNode } from 'react';

/**
 * The one way a field shows its error: an id'd message the input points at with
 * `aria-describedby`, in a `role="alert"` so a screen reader speaks it the moment it appears
 * (a plain paragraph under the field was silent). Pair it with `invalidProps` on the input.
 */
export function FieldError({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {children}
    </p>
  );
}

/**
 * `aria-invalid` and `aria-describedby` for an input: the error's id while there is an error,
 * besides any hint ids that always describe it.
 */
export function invalidProps(
  errorId: string,
  error: unknown,
  ...hintIds: (string | undefined)[]
): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  const ids = [...hintIds, error ? errorId : undefined].filter(Boolean).join(' ');
  return { ...(error ? { 'aria-invalid': true } : {}), ...(ids ? { 'aria-describedby': ids } : {}) };
}
