import { isPlatformError, PlatformError } from '../errors.ts';
import { withDeadline } from '../http/deadline.ts';
import type { FetchLike } from '../http/fetch-like.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { ValidationIssue } from '../schemas/results.ts';
import type { OptionChoice, OptionField } from './manifest.ts';
import {
  activeOptionFields,
  getOptionValue,
  type OptionValues,
  optionValueMap,
  optionValueStrings,
} from './option-fields.ts';
import type { AnyPublisher, PlatformAccount, PlatformCallContext, ValidationOutcome } from './types.ts';

/**
 * `OptionField.choicesFrom` on the server side: loading a field's choices from the platform for
 * one account (briefly cached), and the validation rule that a value must be one of them.
 */

/** Most choices kept from one answer; a longer list is cut (a select that long is a search). */
export const maxOptionChoices = 1000;
const maxLabelLength = 300;
const defaultTimeoutMs = 10_000;

/** Loads one field's choices for one account. `values`: every option's value by dotted name. */
export type OptionChoicesLoader = (input: {
  publisher: AnyPublisher;
  account: PlatformAccount;
  field: OptionField;
  values: Readonly<Record<string, string>>;
}) => Promise<OptionChoice[]>;

/** Calls `publisher.optionChoices` and keeps a well-formed answer: string values, unique, capped. */
export async function fetchOptionChoices(
  publisher: AnyPublisher,
  account: PlatformAccount,
  field: OptionField,
  values: Readonly<Record<string, string>>,
  context: PlatformCallContext,
): Promise<OptionChoice[]> {
  if (!publisher.optionChoices) {
    throw new PlatformError('internal', `${publisher.displayName} offers no choices for ${field.label}`, {
      retryable: false,
    });
  }
  const answer: unknown = await publisher.optionChoices(account, field.name, values, context);
  if (!Array.isArray(answer)) {
    throw new PlatformError('internal', `${publisher.displayName} answered no list of choices`, {
      retryable: false,
    });
  }
  const seen = new Set<string>();
  const choices: OptionChoice[] = [];
  for (const item of answer as unknown[]) {
    const { value, label } = (item ?? {}) as { value?: unknown; label?: unknown };
    if (typeof value !== 'string' || value === '' || seen.has(value)) continue;
    seen.add(value);
    const text = typeof label === 'string' && label.trim() ? label.trim() : value;
    choices.push({ value, label: text.slice(0, maxLabelLength) });
    if (choices.length >= maxOptionChoices) break;
  }
  return choices;
}

/** What one answer depends on: the account, the field, and the value of its `dependsOn` field. */
export function optionChoicesKey(
  account: Pick<PlatformAccount, 'id' | 'platform' | 'platformAccountId'>,
  field: OptionField,
  values: Readonly<Record<string, string>>,
): string {
  const dependsOn = field.choicesFrom?.dependsOn;
  return JSON.stringify([
    account.platform,
    account.id,
    account.platformAccountId,
    field.name,
    dependsOn ? (values[dependsOn] ?? '') : '',
  ]);
}

/**
 * Answers kept for `ttlMs` (boards and flairs change rarely; a new one shows within a minute);
 * concurrent asks for one key share one call, and a failure is not kept.
 */
export class OptionChoicesCache {
  readonly #entries = new Map<string, { at: number; choices: Promise<OptionChoice[]> }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(options: { ttlMs?: number; maxEntries?: number } = {}) {
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#maxEntries = options.maxEntries ?? 1_000;
  }

  /** Whether an answer (or a call in flight) for the key is fresh. */
  has(key: string, now = Date.now()): boolean {
    const hit = this.#entries.get(key);
    return hit !== undefined && now - hit.at < this.#ttlMs;
  }

  get(key: string, load: () => Promise<OptionChoice[]>, now = Date.now()): Promise<OptionChoice[]> {
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < this.#ttlMs) return hit.choices;
    const choices = load();
    this.#entries.delete(key);
    this.#entries.set(key, { at: now, choices });
    // Oldest first: a Map keeps insertion order.
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    choices.catch(() => {
      if (this.#entries.get(key)?.choices === choices) this.#entries.delete(key);
    });
    return choices;
  }
}

/**
 * A cached loader that calls the publisher under a deadline: what the posting service uses when
 * its deployment gives none (the Scheduler gives its own, which stores refreshed credentials).
 */
export function cachedOptionChoicesLoader(
  options: {
    cache?: OptionChoicesCache;
    timeoutMs?: number;
    logger?: Logger;
    accountHostFetch?: FetchLike;
  } = {},
): OptionChoicesLoader {
  const cache = options.cache ?? new OptionChoicesCache();
  return ({ publisher, account, field, values }) =>
    cache.get(optionChoicesKey(account, field, values), async () => {
      const deadline = withDeadline(undefined, options.timeoutMs ?? defaultTimeoutMs);
      try {
        return await fetchOptionChoices(publisher, account, field, values, {
          signal: deadline.signal,
          logger: options.logger ?? silentLogger,
          ...(options.accountHostFetch ? { accountHostFetch: options.accountHostFetch } : {}),
        });
      } finally {
        deadline.dispose();
      }
    });
}

/**
 * The validation rule of `choicesFrom`, for the posting service and for any publisher's own
 * `validate`: every shown field whose choices come from the platform and that has a value must
 * hold choices the platform offers for this account (each item, for a list), unless the field
 * says `allowCustom`. A value outside them is the error `option_not_offered`, its path the field;
 * when the choices cannot be loaded the value passes with the warning `option_choices_unavailable`
 * (the platform judges it when the post is published).
 */
export async function checkOptionChoices(input: {
  publisher: AnyPublisher;
  account: PlatformAccount;
  fields: readonly OptionField[];
  options: OptionValues;
  load: OptionChoicesLoader;
}): Promise<ValidationOutcome> {
  const { publisher, account, options } = input;
  const outcome: ValidationOutcome = { errors: [], warnings: [] };
  if (!publisher.optionChoices) return outcome;
  const values = optionValueMap(options);
  const checked = activeOptionFields(input.fields, options).filter(
    (field) =>
      field.choicesFrom &&
      !field.choicesFrom.allowCustom &&
      optionValueStrings(getOptionValue(options, field.name)).length > 0,
  );
  await Promise.all(
    checked.map(async (field) => {
      const path = `accountOptions.${account.id}.${field.name}`;
      let offered: Set<string>;
      try {
        offered = new Set((await input.load({ publisher, account, field, values })).map((c) => c.value));
      } catch (error) {
        outcome.warnings.push(unavailable(publisher, field, path, error));
        return;
      }
      for (const value of optionValueStrings(getOptionValue(options, field.name))) {
        if (offered.has(value)) continue;
        outcome.errors.push({
          code: 'option_not_offered',
          message: `${field.label}: “${value.slice(0, 100)}” is not among the choices ${publisher.displayName} offers for this account`,
          path,
        });
      }
    }),
  );
  return outcome;
}

function unavailable(
  publisher: AnyPublisher,
  field: OptionField,
  path: string,
  error: unknown,
): ValidationIssue {
  const why = isPlatformError(error) ? ` (${error.code.replaceAll('_', ' ')})` : '';
  return {
    code: 'option_choices_unavailable',
    message: `${field.label} could not be checked against the choices ${publisher.displayName} offers${why}; it is sent as entered`,
    path,
  };
}
