import type { OptionField } from './manifest.ts';

/**
 * How option values and a manifest's option fields fit together, the same in the browser (the
 * composer) and on the servers (validation): dotted names (`event.title`) address nested option
 * objects, and `showWhen` decides which fields count. Browser-safe: imports nothing but types.
 */

export type OptionValues = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nothing entered: undefined, null, an empty string or an empty list. */
export const isEmptyOptionValue = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** The value at a dotted name: `event.title` reads `{ event: { title } }`. */
export function getOptionValue(values: OptionValues, name: string): unknown {
  let current: unknown = values;
  for (const key of name.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * A copy of `values` with the dotted name set; undefined, null or '' removes the key, and a nested
 * object left empty goes with it, so nothing empty is ever sent. Other values are kept as given
 * (a field being typed may hold a space).
 */
export function setOptionValue(values: OptionValues, name: string, value: unknown): Record<string, unknown> {
  const [key, ...rest] = name.split('.');
  const copy: Record<string, unknown> = { ...values };
  if (rest.length === 0) {
    if (value === undefined || value === null || value === '') delete copy[key!];
    else copy[key!] = value;
    return copy;
  }
  const child = setOptionValue(
    isObject(copy[key!]) ? (copy[key!] as OptionValues) : {},
    rest.join('.'),
    value,
  );
  if (Object.keys(child).length === 0) delete copy[key!];
  else copy[key!] = child;
  return copy;
}

/**
 * Whether `showWhen` lets a field show for these values (always, without `showWhen`): the
 * controlling field has the value `equals` names, or one of them for a list. An unset controlling
 * field equals `false` (an unticked box), never a string or number.
 */
export function optionShown(field: OptionField, values: OptionValues): boolean {
  if (!field.showWhen) return true;
  const actual = getOptionValue(values, field.showWhen.field);
  const { equals } = field.showWhen;
  const expected: readonly unknown[] = Array.isArray(equals) ? equals : [equals];
  if (actual === undefined || actual === null || actual === '') return expected.includes(false);
  return expected.some((value) => actual === value || String(actual) === String(value));
}

/**
 * The fields that count for these values: those `showWhen` shows, and whose controlling field is
 * itself shown (a field under a hidden field is hidden too).
 */
export function activeOptionFields(fields: readonly OptionField[], values: OptionValues): OptionField[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const shown = (field: OptionField, seen: Set<string>): boolean => {
    if (!optionShown(field, values)) return false;
    const controller = field.showWhen && byName.get(field.showWhen.field);
    if (!controller || seen.has(controller.name)) return true;
    seen.add(field.name);
    return shown(controller, seen);
  };
  return fields.filter((field) => shown(field, new Set()));
}

/**
 * The values without those of hidden fields: what is validated and published. A nested object
 * whose declared fields are all hidden goes as a whole (`event` while the post is no event);
 * other keys no field declares stay as they are (the platform's options schema judges them).
 */
export function visibleOptions(
  fields: readonly OptionField[],
  values: OptionValues,
): Record<string, unknown> {
  // Nothing to hide (most posts set no options): skip the walk, which runs per target per publish.
  if (fields.length === 0 || Object.keys(values).length === 0) return { ...values };
  const active = new Set(activeOptionFields(fields, values).map((f) => f.name));
  const parents = new Set(
    fields.flatMap((f) =>
      f.name
        .split('.')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
    ),
  );
  let visible: Record<string, unknown> = { ...values };
  for (const parent of parents) {
    const shownInside = [...active].some((name) => name.startsWith(`${parent}.`));
    if (!shownInside && getOptionValue(visible, parent) !== undefined)
      visible = setOptionValue(visible, parent, undefined);
  }
  for (const field of fields) {
    if (!active.has(field.name) && getOptionValue(visible, field.name) !== undefined)
      visible = setOptionValue(visible, field.name, undefined);
  }
  return visible;
}

/** Shown fields marked `required` that have no value. */
export function missingRequiredOptions(fields: readonly OptionField[], values: OptionValues): OptionField[] {
  return activeOptionFields(fields, values).filter(
    (field) => field.required && isEmptyOptionValue(getOptionValue(values, field.name)),
  );
}

/** An option's value as the strings a choice list is compared with (a list gives each item). */
export function optionValueStrings(value: unknown): string[] {
  const one = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((v) => {
    const s = one(v);
    return s === undefined || s === '' ? [] : [s];
  });
}

/**
 * The other fields' current values as `Publisher.optionChoices` receives them: every scalar by
 * its dotted name, as a string (lists and empty values left out).
 */
export function optionValueMap(values: OptionValues, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isObject(value)) Object.assign(flat, optionValueMap(value, name));
    else if (!Array.isArray(value)) {
      const [s] = optionValueStrings(value);
      if (s !== undefined) flat[name] = s;
    }
  }
  return flat;
}
