import { activeOptionFields, getOptionValue } from '@postwave/shared/platforms/option-fields';
import Link from 'next/link';
import { AccountAvatar } from '#components/account-avatar.tsx';
import {
  type AccountSummary,
  accountHandle,
  accountName,
  manifestFor,
  platformName,
} from '#components/lib/platforms.ts';
import { type OptionUpload, optionKey, type ValidationResult } from './composer-state.ts';
import { OptionField } from './option-field.tsx';

/** One target account: how its platform judges the post, and that platform's option fields. */
export function TargetPanel({
  account,
  result,
  options,
  uploads,
  timezone,
  setOption,
  uploadOption,
}: {
  account: AccountSummary;
  result: ValidationResult | undefined;
  options: Record<string, unknown>;
  uploads: Record<string, OptionUpload>;
  timezone: string;
  setOption: (name: string, value: unknown) => void;
  uploadOption: (name: string, file: File) => void;
}) {
  const invalid = result ? !result.valid : false;
  const declared = manifestFor(account.platform)?.options ?? [];
  // Only the fields `showWhen` shows for the current values; a hidden one keeps its value unsent.
  const fields = activeOptionFields(declared, options);
  const dependsOn = (name: string | undefined) => {
    if (!name) return undefined;
    const value = getOptionValue(options, name);
    const label = declared.find((f) => f.name === name)?.label ?? name;
    return { name, value: value === undefined || value === null ? '' : String(value), label };
  };
  return (
    <li
      className="target"
      data-invalid={invalid}
      data-testid={`target-${account.id}`}
      aria-label={`${accountName(account)} checks`}
    >
      <div className="target-head">
        <AccountAvatar account={account} size="sm" />
        <div className="meta">
          <strong>{accountName(account)}</strong>
          <span>
            {platformName(account.platform)} · {accountHandle(account)}
          </span>
        </div>
        {result &&
          (result.valid ? (
            <span className="badge badge-ok">Ready</span>
          ) : (
            <span className="badge badge-danger">Fix</span>
          ))}
      </div>
      {account.status === 'needs_reconnect' && (
        <p className="field-error">
          This account needs to be reconnected. <Link href="/accounts">Reconnect it</Link>
        </p>
      )}
      {result && (result.errors.length > 0 || result.warnings.length > 0) && (
        // The alert role on a wrapper: a list keeps its list role, so its items stay list items.
        <div role="alert">
          <ul className="issues">
            {result.errors.map((issue) => (
              <li key={`e-${issue.code}-${issue.path}-${issue.message}`} className="error">
                {issue.message}
              </li>
            ))}
            {result.warnings.map((issue) => (
              <li key={`w-${issue.code}-${issue.path}-${issue.message}`} className="warning">
                {issue.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {fields.length > 0 && (
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0, gap: 10 }}>
          <legend className="sr-only">{platformName(account.platform)} options</legend>
          {fields.map((spec) => (
            <OptionField
              key={spec.name}
              id={`option-${account.id}-${spec.name.replaceAll('.', '-')}`}
              spec={spec}
              accountId={account.id}
              depends={dependsOn(spec.choicesFrom?.dependsOn)}
              value={getOptionValue(options, spec.name)}
              timezone={timezone}
              upload={uploads[optionKey(account.id, spec.name)]}
              onChange={(value) => setOption(spec.name, value)}
              onUpload={(file) => uploadOption(spec.name, file)}
            />
          ))}
        </fieldset>
      )}
    </li>
  );
}
