import { FieldError, invalidProps } from './field-error.tsx';

type Binding =
  /** A controlled select (the queue's slot editor, workspace settings). */
  | { value: string; onChange: (zone: string) => void; name?: undefined; defaultValue?: undefined }
  /** A form field read by its `name` on submit (the profile's server action). */
  | { name: string; defaultValue: string; value?: undefined; onChange?: undefined };

/**
 * The time zone picker: every IANA zone the runtime knows (`timeZones()`), the current one listed
 * even when the runtime does not know it (an older zone stored earlier), shown with spaces for
 * underscores, with its error beside it.
 */
export function TimeZoneField({
  id,
  zones,
  error,
  hint,
  ...binding
}: Binding & { id: string; zones: string[]; error?: string | undefined; hint?: string }) {
  const current = binding.value ?? binding.defaultValue;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>Time zone</label>
      <select
        id={id}
        className="select"
        {...(binding.onChange
          ? { value: binding.value, onChange: (e) => binding.onChange(e.target.value) }
          : { name: binding.name, defaultValue: binding.defaultValue })}
        {...invalidProps(`${id}-error`, error, hintId)}
      >
        {(zones.includes(current) ? zones : [current, ...zones]).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}
