'use client';

import { TimeZoneField } from '#components/time-zone-field.tsx';
import type { FormAction } from '#server/ui/schema.ts';
import { useKeptForm } from '../lib/use-kept-form.ts';

export function ProfileForm({
  name,
  email,
  timezone,
  zones,
  updateProfile,
}: {
  name: string;
  email: string;
  timezone: string;
  zones: string[];
  /** The server action that saves the profile (server/ui/actions.ts), given by the page. */
  updateProfile: FormAction;
}) {
  const { state, pending, form } = useKeptForm(updateProfile);
  return (
    <form
      {...form}
      onSubmit={(event) => {
        if (pending) event.preventDefault();
        else form.onSubmit(event);
      }}
      className="stack"
    >
      <div className="field">
        <label htmlFor="profile-email">Email</label>
        <input id="profile-email" className="input" value={email} readOnly aria-readonly="true" />
      </div>
      <div className="field">
        <label htmlFor="profile-name">Name</label>
        <input id="profile-name" name="name" className="input" defaultValue={name} maxLength={200} />
      </div>
      <TimeZoneField
        id="profile-timezone"
        name="timezone"
        defaultValue={timezone}
        zones={zones}
        error={state.fieldErrors?.timezone}
        hint="Scheduling and the calendar use this time zone. Times are stored in UTC."
      />
      <div className="row">
        {/* aria-disabled, not disabled: the pressed button keeps the focus while it saves. */}
        <button type="submit" className="btn btn-primary" aria-disabled={pending}>
          {pending ? 'Saving…' : 'Save profile'}
        </button>
        {state.ok && (
          <span className="small" style={{ color: 'var(--ok)' }} role="status">
            {state.ok}
          </span>
        )}
      </div>
    </form>
  );
}
