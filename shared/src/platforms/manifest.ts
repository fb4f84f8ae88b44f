import type { MediaKind } from '../media/kinds.ts';

/**
 * The browser-safe description of a platform: everything a client (the web app, the CLI, docs)
 * needs to render a connect form, option fields, a counter and a chip, without a line of server
 * code. Each platform folder exports one `manifest.ts` that imports only browser-safe modules
 * (zod, `../../text.ts`, its own counting helpers); `registry.ts` lists them once.
 */

/** What a counter shows under the composer for one target. */
export interface TextCount {
  used: number;
  limit: number;
  /** What is counted, for the counter's tooltip ("characters (UTF-16)", "weighted characters"). */
  unit: string;
}

/** The parts of a post that change how a platform counts its text. */
export interface CountInput {
  message: string;
  /** Whether the target carries media (Telegram's caption limit is lower than its text limit). */
  hasMedia: boolean;
  /** The target's platform options as the user entered them (e.g. Telegram `parseMode`). */
  options: Record<string, unknown>;
}

export interface TextRules {
  /** The limit shown when nothing else is known (the common case). */
  limit: number;
  /** How the platform counts, in a few words for help text ("graphemes", "twitter-text weighted"). */
  unit: string;
  /** Counts exactly as the SDK's validation does; runs in the browser. */
  count(input: CountInput): TextCount;
}

export interface MediaRules {
  /** Media is required (Instagram, YouTube). */
  required: boolean;
  /** Most items on one post. 0: the platform takes no media. */
  maxItems: number;
  kinds: MediaKind[];
  /** One line for the composer, e.g. "Up to 4 images, or 1 video or GIF". */
  summary: string;
}

/** A per-post option the composer renders, taken from the platform's options schema. */
export interface OptionField {
  /** Key in `accountOptions[accountId]`. */
  name: string;
  label: string;
  help?: string;
  type: 'text' | 'textarea' | 'select' | 'boolean' | 'datetime' | 'tags' | 'media' | 'number';
  /** For `select`. */
  choices?: { value: string; label: string }[];
  /**
   * Its values name hosts the server connects to (Nostr relays). Named in a request, rather than
   * in an operator's accounts file, they follow the address policy (contract C and D: no loopback
   * or private addresses), even where the deployment trusts the hosts its accounts name.
   */
  namesHosts?: true;
  /** For `media`: the media kinds accepted (a YouTube thumbnail takes images). */
  accept?: MediaKind[];
  /** For `media`: the exact content types the platform takes, narrowing `accept` in the file picker. */
  contentTypes?: string[];
  required?: boolean;
  placeholder?: string;
  /**
   * Choices loaded from the platform for one account (Pinterest boards, Reddit flairs, TikTok
   * privacy levels): the publisher answers `optionChoices(account, name, values)`, the Scheduler
   * serves them at `GET /api/v1/accounts/{id}/options/{name}`, the composer shows a searchable
   * select, and validation rejects a value the platform does not offer.
   */
  choicesFrom?: OptionChoicesSource;
  /**
   * Shown and validated only while another field has this value (a sub-option of a choice), or
   * one of these values (Google Business event fields serve both events and offers).
   */
  showWhen?: { field: string; equals: OptionScalar | readonly OptionScalar[] };
}

/** A value `showWhen` compares with. */
export type OptionScalar = string | number | boolean;

/** Where a field's choices come from when they depend on the account (`OptionField.choicesFrom`). */
export interface OptionChoicesSource {
  /** The field whose value narrows the choices (Pinterest sections of a board); sent as `?<field>=`. */
  dependsOn?: string;
  /** Whether typed text outside the loaded choices is accepted (a flair text the user writes). */
  allowCustom?: boolean;
}

/** One choice of an option loaded from the platform. */
export interface OptionChoice {
  value: string;
  label: string;
}

/** A field of a credentials connect form. */
export interface CredentialField {
  name: string;
  label: string;
  type: 'text' | 'password' | 'url' | 'select' | 'textarea';
  /** For `select`. */
  choices?: { value: string; label: string }[];
  placeholder?: string;
  help?: string;
  required: boolean;
  /**
   * Where the value goes in `POST /api/v1/accounts`: `platformAccountId`, or a key of
   * `credentials` (the default, `credentials.<name>`).
   */
  target?: 'platformAccountId' | 'credentials';
  /** Normalisation applied in the browser before sending (trim is always applied). */
  transform?: 'strip-at' | 'https-url';
}

export interface CredentialsConnect {
  method: 'credentials';
  /** What to do on the platform first, in a sentence or two. */
  intro: string;
  fields: CredentialField[];
}

export interface OAuthConnect {
  method: 'oauth';
  /** Where the browser goes to start: `/api/v1/accounts/connect/<id>`. */
  startPath: string;
  /** The env variables an operator sets to enable it (shown when they are missing). */
  requiredEnv: string[];
  intro: string;
  /** The connect button's text when it should not be the platform name ("Connect with Google"). */
  buttonLabel?: string;
}

/**
 * What a platform does with the composer's extra fields (docs/composer-fields.md). The composer shows
 * the thread editor, the first-comment field and the alt-text prompt from these; validation
 * refuses a field a platform cannot honour with a clear message instead of dropping it.
 */
export interface PlatformFeatures {
  /** `thread` parts are published as a reply chain (X, Bluesky, Mastodon, Threads, Telegram replies, Discord messages in order). */
  thread: boolean;
  /** `accountOptions[id].firstComment` is posted right after the post (a comment, or a reply where the platform has no comments). */
  firstComment: boolean;
  /** Media `altText` is sent to the platform, up to `maxLength` characters; null: the platform has none (a validation warning). */
  altText: { maxLength: number } | null;
}

export interface PlatformManifest {
  id: string;
  name: string;
  /** One SVG element as markup (viewBox 0 0 24 24, `currentColor` fill), safe to inline. */
  icon: string;
  /** Brand colour, CSS hex. */
  color: string;
  text: TextRules;
  media: MediaRules;
  options: OptionField[];
  features: PlatformFeatures;
  connect: CredentialsConnect | OAuthConnect;
  /**
   * The metrics the publisher collects (contract H: every manifest declares them; empty lists: the
   * platform reports none).
   */
  analytics: PlatformAnalytics;
  /** The platform's page in our docs, as a repository path (`docs/platforms/<id>.md`). */
  docs: string;
}

/** Metric names, the same on every platform, so figures compare across platforms. */
export const postMetricNames = [
  'impressions',
  'reach',
  'views',
  'likes',
  'comments',
  'reposts',
  'quotes',
  'shares',
  'saves',
  'clicks',
] as const;
export type PostMetricName = (typeof postMetricNames)[number];
export const accountMetricNames = ['followers'] as const;
export type AccountMetricName = (typeof accountMetricNames)[number];

/** What a platform reports: a metric it does not have is absent from its lists, never 0. */
export interface PlatformAnalytics {
  post: PostMetricName[];
  account: AccountMetricName[];
}

/** The icon markup for one SVG path drawn on the 24×24 grid in the current text colour. */
export function svgIcon(path: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
}
