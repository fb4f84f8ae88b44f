import type { OptionField } from '../platforms/manifest.ts';
import { checkOptionChoices, type OptionChoicesLoader } from '../platforms/option-choices.ts';
import { missingRequiredOptions } from '../platforms/option-fields.ts';
import type { AnyPublisher, PlatformAccount, ValidationOutcome } from '../platforms/types.ts';
import type { ValidationIssue } from '../schemas/results.ts';

/**
 * The checks every platform's option fields get from their manifest, whatever the platform's own
 * `validate` does (contract section C): a shown `required` field must have a value
 * (`option_required`), and a value of a `choicesFrom` field must be one the platform offers
 * (`option_not_offered`). Hidden fields (`showWhen`) were removed before the options were parsed.
 */
export async function checkOptionFields(input: {
  publisher: AnyPublisher;
  account: PlatformAccount;
  fields: readonly OptionField[];
  /** The parsed options (defaults applied). */
  options: Record<string, unknown>;
  load: OptionChoicesLoader;
}): Promise<ValidationOutcome> {
  const { account, fields, options } = input;
  const required: ValidationIssue[] = missingRequiredOptions(fields, options).map((field) => ({
    code: 'option_required',
    message: `${field.label} is required for ${input.publisher.displayName}`,
    path: `accountOptions.${account.id}.${field.name}`,
  }));
  const choices = await checkOptionChoices(input);
  return { errors: [...required, ...choices.errors], warnings: choices.warnings };
}

/**
 * Whether `checkOptionFields` can find anything for these fields: only a field that is `required`,
 * or one with `choicesFrom` on a publisher that offers choices, can produce an issue. Most
 * platforms' fields are neither, and the check runs per target per publish.
 */
export function optionFieldsNeedChecks(publisher: AnyPublisher, fields: readonly OptionField[]): boolean {
  return fields.some((field) => field.required || (field.choicesFrom && publisher.optionChoices));
}

/** Issues once each: a publisher that runs a shared check itself must not double the message. */
export function uniqueIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.code}\n${issue.path ?? ''}\n${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
