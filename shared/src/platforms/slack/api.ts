import { type SlackOperation, slackError } from './errors.ts';
import { type SlackAnswer, slackRequest } from './request.ts';
import type { SlackToken } from './token.ts';

type Params = Record<string, string | number | boolean | undefined>;

/** Errors after which a rotating token is renewed once and the call tried again. */
const renewable = new Set(['token_expired', 'invalid_auth']);

/**
 * One account's calls to the Slack Web API: the bot token as a Bearer header, parameters as a
 * form (every method takes that encoding) or a query for reads, and Slack's `{ ok: false, error }`
 * answers classified. Slack's host is the operator's (SLACK_API_URL), so the plain fetch is used.
 */
export class SlackApi {
  readonly #apiUrl: string;
  readonly #token: SlackToken;
  readonly #signal: AbortSignal | undefined;

  constructor(apiUrl: string, token: SlackToken, signal: AbortSignal | undefined) {
    this.#apiUrl = apiUrl;
    this.#token = token;
    this.#signal = signal;
  }

  /** POSTs a form; `read` sends a GET with the parameters in the query instead. */
  async call<T extends object>(
    method: string,
    params: Params,
    operation: SlackOperation,
    options: {
      read?: boolean;
      /** Errors returned as answers instead of thrown (a lookup the call can do without). */
      accept?: readonly string[];
    } = {},
  ): Promise<T & SlackAnswer> {
    let renewed = false;
    for (;;) {
      const token = await this.#token.current();
      const answer = await slackRequest<T>(this.#apiUrl, method, params, {
        token,
        read: options.read === true,
        signal: this.#signal,
      });
      if (answer.ok) return answer;
      const error = answer.error ?? 'unknown_error';
      if (options.accept?.includes(error)) return answer;
      if (!renewed && renewable.has(error) && this.#token.canRenew) {
        renewed = true;
        await this.#token.renew();
        continue;
      }
      throw slackError(error, operation, { status: 200 });
    }
  }
}
