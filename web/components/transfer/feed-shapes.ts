/** The feeds page's shapes (as the page hands them over) and the words and fields its manager shows. */

export interface FeedRow {
  id: string;
  url: string;
  name: string | null;
  accountIds: string[];
  template: string;
  mode: 'draft' | 'now' | 'queue';
  intervalMinutes: number;
  enabled: boolean;
  lastPolledAt: string | null;
  lastStatus: string | null;
  lastError: string | null;
}

export interface FeedAccount {
  id: string;
  platform: string;
  name: string;
}

/** The add form's fields a refusal can name, in the form's order, with the control that takes the focus. */
export type FeedField = 'url' | 'name' | 'accountIds' | 'template';
export const feedFields: [FeedField, string][] = [
  ['url', 'feed-url'],
  ['name', 'feed-name'],
  ['accountIds', 'feed-account-0'],
  ['template', 'feed-template'],
];

export const statusText: Record<string, string> = {
  primed: 'Watching (existing items skipped)',
  updated: 'Checked',
  not_modified: 'No change',
  failed: 'Failed',
};
