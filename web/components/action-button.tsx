import type { ButtonHTMLAttributes, MouseEvent } from 'react';

/**
 * A button that cannot act right now (a field is empty, a request is pending) without leaving the
 * tab order: `aria-disabled` instead of `disabled`, a press is ignored (a submit button's too, so
 * Enter in a field of its form sends nothing either), and while blocked it is described by the
 * reason (`reasonId`, the id of the text that says why) when one is shown. A `disabled` button
 * drops out of the tab order, is not announced with its reason, and, when it becomes disabled
 * while focused (pressed, then pending), sends the focus to <body>. docs/web-ui.md, Focus.
 *
 *   <ActionButton blocked={!name.trim()} reasonId={reasonId} onPress={save}>Save</ActionButton>
 *   <ActionButton type="submit" blocked={pending}>{pending ? 'Saving…' : 'Save'}</ActionButton>
 */
export function ActionButton({
  blocked,
  reasonId,
  onPress,
  primary = false,
  type = 'button',
  className,
  children,
  'aria-describedby': describedBy,
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick' | 'type'> & {
  blocked: boolean;
  /** The id of the visible (or screen-reader-only) text saying why it is blocked. */
  reasonId?: string | undefined;
  /** Runs on a press that is not blocked (a submit button may leave it out: its form submits). */
  onPress?: (event: MouseEvent<HTMLButtonElement>) => void;
  primary?: boolean;
  type?: 'button' | 'submit';
}) {
  const description = [describedBy, blocked ? reasonId : undefined].filter(Boolean).join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={className ?? (primary ? 'btn btn-primary' : 'btn')}
      aria-disabled={blocked || undefined}
      aria-describedby={description || undefined}
      onClick={(event) => {
        if (blocked) event.preventDefault();
        else onPress?.(event);
      }}
    >
      {children}
    </button>
  );
}
