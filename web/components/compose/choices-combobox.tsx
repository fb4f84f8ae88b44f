'use client';

import type { OptionChoice, OptionField } from '@postwave/shared/platforms/manifest';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type ChoicesState, useOptionChoices } from './use-option-choices.ts';

interface Props {
  id: string;
  spec: OptionField;
  accountId: string;
  value: unknown;
  /** The field the choices depend on, with its current value and label. */
  depends: { name: string; value: string; label: string } | undefined;
  describedBy: string | undefined;
  onChange: (value: string | undefined) => void;
}

const matches = (choice: OptionChoice, query: string) =>
  choice.label.toLowerCase().includes(query) || choice.value.toLowerCase().includes(query);

const exact = (choices: OptionChoice[], text: string) => {
  const wanted = text.trim().toLowerCase();
  return choices.find((c) => c.label.toLowerCase() === wanted || c.value.toLowerCase() === wanted);
};

/** A failure to load, then what the person can do about it when the server said (a reconnect, a wait). */
function failedText(message: string, hint: string | undefined): string {
  const said = `The choices could not be loaded: ${message}`;
  return hint ? `${said}${/[.!?]$/.test(said) ? '' : '.'} ${hint}` : said;
}

/** What the live region says: screen readers hear how many choices there are as the user types. */
function announcement(state: ChoicesState, open: boolean, count: number, dependsLabel?: string): string {
  if (state.status === 'loading') return 'Loading choices…';
  if (state.status === 'waiting')
    return dependsLabel ? `Choose the ${dependsLabel.toLowerCase()} first.` : '';
  if (state.status === 'failed') return failedText(state.message, state.hint);
  if (!open) return '';
  if (count === 0) return 'No choice matches.';
  return `${count} ${count === 1 ? 'choice' : 'choices'} available.`;
}

/**
 * A searchable select over choices the platform offers (ARIA 1.2 editable combobox with list
 * autocomplete): typing filters, Down/Up move through the list, Enter picks, Escape closes, and
 * the number of matches is announced. Typed text is kept as the value where the field allows
 * custom text, or while the choices cannot be loaded (validation then checks it).
 */
export function ChoicesCombobox({ id, spec, accountId, value, depends, describedBy, onChange }: Props) {
  const { state, retry } = useOptionChoices(
    accountId,
    spec.name,
    depends ? { name: depends.name, value: depends.value } : undefined,
  );
  const choices = state.status === 'ready' ? state.choices : [];
  const current = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const labelOf = (v: string) => choices.find((c) => c.value === v)?.label ?? v;
  const acceptsTyped = spec.choicesFrom?.allowCustom === true || state.status === 'failed';

  const [text, setText] = useState(current);
  const [editing, setEditing] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = `${id}-choices`;
  const statusId = `${id}-status`;
  const query = editing ? text.trim().toLowerCase() : '';
  const shown = query ? choices.filter((c) => matches(c, query)) : choices;

  // The box shows the chosen choice's label once the choices are known, unless the user is typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: labelOf reads `choices`, listed
  useEffect(() => {
    if (!editing) setText(labelOf(current));
  }, [current, choices, editing]);

  // A new value of the field the choices depend on makes the old choice meaningless (another board's section).
  const dependsValue = depends?.value;
  const previousDepends = useRef(dependsValue);
  useEffect(() => {
    if (previousDepends.current === dependsValue) return;
    previousDepends.current = dependsValue;
    if (current) onChange(undefined);
  }, [dependsValue, current, onChange]);

  // The active choice stays in sight while Down/Up move through a long list.
  useEffect(() => {
    if (open && active >= 0)
      document.getElementById(`${id}-choice-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active, id]);

  const pick = (choice: OptionChoice) => {
    onChange(choice.value);
    setText(choice.label);
    setEditing(false);
    setOpen(false);
    setActive(-1);
  };

  /** Leaving the box: typed text becomes a choice it names, the typed value, or goes back. */
  const commit = () => {
    setOpen(false);
    setActive(-1);
    if (!editing) return;
    setEditing(false);
    const typed = text.trim();
    const named = exact(choices, typed);
    if (named) pick(named);
    else if (typed === '') onChange(undefined);
    else if (acceptsTyped) onChange(typed);
    else setText(labelOf(current));
  };

  const openList = (at: number) => {
    setOpen(true);
    setActive(shown.length ? Math.min(Math.max(at, 0), shown.length - 1) : -1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open)
          openList(
            event.altKey
              ? -1
              : Math.max(
                  0,
                  shown.findIndex((c) => c.value === current),
                ),
          );
        else if (!event.altKey) setActive((i) => Math.min(i + 1, shown.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openList(shown.length - 1);
        else if (event.altKey) setOpen(false);
        else setActive((i) => Math.max(i - 1, 0));
        break;
      case 'Enter':
        if (open && active >= 0 && shown[active]) {
          event.preventDefault();
          pick(shown[active]);
        } else if (open || editing) {
          event.preventDefault();
          commit();
        }
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (editing) {
          event.preventDefault();
          setEditing(false);
          setText(labelOf(current));
        }
        break;
    }
  };

  const optionId = (index: number) => `${id}-choice-${index}`;
  const waitingHint =
    state.status === 'waiting' && depends ? `Choose the ${depends.label.toLowerCase()} first` : undefined;
  return (
    <div className="combobox">
      <div className="combobox-field">
        <input
          ref={input}
          id={id}
          className="input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
          aria-describedby={[describedBy, statusId].filter(Boolean).join(' ')}
          aria-busy={state.status === 'loading' ? true : undefined}
          required={spec.required}
          autoComplete="off"
          spellCheck={false}
          placeholder={
            waitingHint ?? spec.placeholder ?? (acceptsTyped ? 'Type or choose' : 'Type to search')
          }
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setEditing(true);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={commit}
        />
        <button
          type="button"
          className="combobox-toggle"
          tabIndex={-1}
          aria-label={`${open ? 'Hide' : 'Show'} ${spec.label.toLowerCase()} choices`}
          aria-controls={listId}
          aria-expanded={open}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            if (open) setOpen(false);
            else {
              input.current?.focus();
              openList(
                Math.max(
                  0,
                  shown.findIndex((c) => c.value === current),
                ),
              );
            }
          }}
        >
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      <div
        id={listId}
        role="listbox"
        aria-label={`${spec.label} choices`}
        className="combobox-list"
        hidden={!open || shown.length === 0}
      >
        {shown.map((choice, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard (aria-activedescendant)
          <div
            key={choice.value}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            data-current={choice.value === current || undefined}
            className="combobox-option"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(choice)}
          >
            {choice.label}
          </div>
        ))}
      </div>
      <p id={statusId} className="hint" role="status" aria-live="polite">
        {announcement(state, open, shown.length, depends?.label)}
        {state.status === 'failed' && (
          <>
            {' '}
            <button type="button" className="btn btn-sm" onClick={retry}>
              Try again
            </button>
          </>
        )}
      </p>
    </div>
  );
}
