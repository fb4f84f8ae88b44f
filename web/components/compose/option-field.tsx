import type { OptionField as OptionSpec } from '@postwave/shared/platforms/manifest';
import { utcToZonedInput, zonedToUtc } from '#components/lib/time.ts';
import { ChoicesCombobox } from './choices-combobox.tsx';
import type { OptionUpload } from './composer-state.ts';

const kindTypes: Record<string, string> = {
  image: 'image/*',
  gif: 'image/gif',
  video: 'video/*',
  document: 'application/pdf',
};

interface Props {
  id: string;
  spec: OptionSpec;
  /** The account whose options these are (choices loaded from the platform are per account). */
  accountId: string;
  /** For `choicesFrom.dependsOn`: that field's name, current value and label. */
  depends?: { name: string; value: string; label: string } | undefined;
  value: unknown;
  timezone: string;
  upload: OptionUpload | undefined;
  onChange: (value: unknown) => void;
  onUpload: (file: File) => void;
}

/** One platform option, rendered from its manifest descriptor (label, help, type). */
export function OptionField(props: Props) {
  const { id, spec } = props;
  const helpId = spec.help ? `${id}-help` : undefined;
  if (spec.type === 'boolean') {
    return (
      <div className="field">
        <label className="small row" style={{ gap: 8 }}>
          <input
            id={id}
            type="checkbox"
            checked={props.value === true}
            aria-describedby={helpId}
            onChange={(e) => props.onChange(e.target.checked ? true : undefined)}
          />
          {spec.label}
        </label>
        {spec.help && (
          <p className="hint" id={helpId}>
            {spec.help}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id} className="small">
        {spec.label}
      </label>
      <OptionInput {...props} helpId={helpId} />
      {spec.help && (
        <p className="hint" id={helpId}>
          {spec.help}
        </p>
      )}
    </div>
  );
}

/** Kinds of field whose single value (a string, as choices are) can be picked from choices the platform offers. */
const choosable = new Set<OptionSpec['type']>(['text', 'textarea', 'select']);

function OptionInput({
  id,
  spec,
  accountId,
  depends,
  value,
  timezone,
  upload,
  onChange,
  onUpload,
  helpId,
}: Props & { helpId?: string }) {
  const common = { id, 'aria-describedby': helpId, required: spec.required };
  const text = typeof value === 'string' ? value : '';
  if (spec.choicesFrom && choosable.has(spec.type)) {
    return (
      <ChoicesCombobox
        id={id}
        spec={spec}
        accountId={accountId}
        value={value}
        depends={depends}
        describedBy={helpId}
        onChange={onChange}
      />
    );
  }
  switch (spec.type) {
    case 'select':
      return (
        <select {...common} className="select" value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">{spec.placeholder ?? 'Default'}</option>
          {spec.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      );
    case 'textarea':
      return (
        <textarea
          {...common}
          className="textarea"
          rows={3}
          placeholder={spec.placeholder}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'number':
      return (
        <input
          {...common}
          className="input"
          type="number"
          inputMode="numeric"
          placeholder={spec.placeholder}
          value={typeof value === 'number' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
    case 'tags':
      // Uncontrolled, so "a, " stays as typed while the option holds the parsed list.
      return (
        <input
          {...common}
          className="input"
          placeholder={spec.placeholder}
          defaultValue={Array.isArray(value) ? value.join(', ') : ''}
          onChange={(e) => {
            const tags = e.target.value
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean);
            onChange(tags.length ? tags : undefined);
          }}
        />
      );
    case 'datetime':
      return (
        <input
          {...common}
          className="input"
          type="datetime-local"
          value={text ? utcToZonedInput(new Date(text), timezone) : ''}
          onChange={(e) => onChange(zonedToUtc(e.target.value, timezone)?.toISOString())}
        />
      );
    case 'media':
      return <MediaOption {...{ id, spec, text, upload, onChange, onUpload, helpId }} />;
    default:
      return (
        <input
          {...common}
          className="input"
          placeholder={spec.placeholder}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

function MediaOption({
  id,
  spec,
  text,
  upload,
  onChange,
  onUpload,
  helpId,
}: Pick<Props, 'id' | 'spec' | 'upload' | 'onChange' | 'onUpload'> & { text: string; helpId?: string }) {
  const accept = spec.contentTypes?.join(',') ?? spec.accept?.map((kind) => kindTypes[kind]).join(',');
  return (
    <>
      {text && (
        <div className="row">
          {/* biome-ignore lint/performance/noImgElement: uploaded option preview */}
          <img src={text} alt={spec.label} style={{ width: 96, borderRadius: 6 }} />
          <button type="button" className="btn btn-sm" onClick={() => onChange(undefined)}>
            Remove
          </button>
        </div>
      )}
      <input
        id={id}
        type="file"
        accept={accept}
        aria-describedby={helpId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onUpload(file);
          e.target.value = '';
        }}
      />
      {upload && !upload.error && (
        <progress max={1} value={upload.progress} aria-label={`${spec.label} upload`} />
      )}
      {upload?.error && (
        <p className="field-error" role="alert">
          {upload.error}
        </p>
      )}
    </>
  );
}
