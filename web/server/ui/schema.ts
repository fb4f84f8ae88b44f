/** What a server-action form shows after it was sent: a form error, field errors, or success. */
export interface FormState {
  error?: string;
  fieldErrors?: Record<string, string>;
  ok?: string;
}

/** A server action behind `useActionState`: the previous state and the form in, the next state out. */
export type FormAction = (state: FormState, form: FormData) => Promise<FormState>;

/** A post on the calendar: scheduled, posted, failed or waiting for approval, at its time (ISO 8601). */
export interface CalendarEntry {
  id: string;
  status: 'scheduled' | 'posted' | 'failed' | 'pending_approval';
  message: string;
  at: string;
  accountIds: string[];
  /** What the pre-flight check found wrong with a scheduled post, if anything. */
  risk?: string;
}

/** The guided start: connect a first account, write a first post, schedule it. */
export interface GettingStartedSteps {
  connected: boolean;
  wrote: boolean;
  scheduled: boolean;
}
