import type { ValidationIssue } from '../schemas/results.ts';
import type { PlatformAccount } from './types.ts';

/*
 * The form of a platform's account id, where the platform fixes it (contract C's "platform account
 * id" column): checked at validation, so a mistyped id fails before any target of the post is sent,
 * instead of at publish after the others went out. Every platform's check answers through
 * `accountIdIssue`, so each is the same issue: `account_invalid` at `platformAccountId`.
 */

/** A numeric id as Meta, Pinterest and Twitch issue them (decimal digits, no sign). */
export const numericId = /^\d{1,30}$/;

/** A Farcaster fid: a positive integer. */
export const farcasterFid = /^[1-9]\d{0,19}$/;

/**
 * A Tumblr blog identifier: its name (letters, digits, hyphens), its hostname (`name.tumblr.com`
 * or a custom domain), or its uuid (`t:…`), each as the API takes it in `/v2/blog/{blog}`.
 */
export const tumblrBlog =
  /^(?:t:[A-Za-z0-9_-]{1,64}|[A-Za-z0-9-]{1,32}|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)$/;

/** `account_invalid` at `platformAccountId` when the id does not have `form` (described by `what`). */
export function accountIdIssue(
  account: PlatformAccount,
  form: RegExp,
  platformName: string,
  what: string,
): ValidationIssue | undefined {
  if (form.test(account.platformAccountId)) return undefined;
  return {
    code: 'account_invalid',
    message: `A ${platformName} platformAccountId is ${what}, not "${account.platformAccountId.slice(0, 100)}"`,
    path: 'platformAccountId',
  };
}
