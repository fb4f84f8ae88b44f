'use client';

import { type Dispatch, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { TargetCount } from './composer-selectors.ts';
import type { ComposerAction } from './composer-state.ts';
import { Counters } from './counters.tsx';
import type { SnippetSummary } from './signatures.ts';
import { SnippetList } from './snippet-list.tsx';
import { matchingSnippets, movedActive, slashQueryAt, snippetOptionId } from './snippet-search.ts';

/** Where the message's text is replaced by a snippet: `[from, to)`. */
interface Range {
  from: number;
  to: number;
}

/**
 * The base message, with one counter per target counting as that target's platform does, and
 * the snippet picker: the "Insert snippet" button, or `/` typed at the start of a word (then
 * the letters after it filter the list; arrows choose, Enter inserts, Escape closes).
 */
export function MessageField({
  message,
  counts,
  dispatch,
  snippets = [],
}: {
  message: string;
  counts: TargetCount[];
  dispatch: Dispatch<ComposerAction>;
  snippets?: SnippetSummary[];
}) {
  const listId = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const caretAfter = useRef<number | undefined>(undefined);
  /** Typing `/`: the slash's position and what follows it. */
  const [slash, setSlash] = useState<{ start: number; query: string } | undefined>();
  /** The button's picker: the selection it replaces and its search text. */
  const [picker, setPicker] = useState<{ range: Range; query: string } | undefined>();
  const [active, setActive] = useState(0);

  const query = slash?.query ?? picker?.query ?? '';
  const shown = slash || picker ? matchingSnippets(snippets, query) : [];

  useEffect(() => {
    if (caretAfter.current === undefined || !area.current) return;
    area.current.focus();
    area.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = undefined;
  });

  const insert = (snippet: SnippetSummary, range: Range) => {
    const next = message.slice(0, range.from) + snippet.body + message.slice(range.to);
    caretAfter.current = range.from + snippet.body.length;
    setSlash(undefined);
    setPicker(undefined);
    dispatch({ type: 'message', message: next });
  };

  const onChange = (value: string, caret: number) => {
    dispatch({ type: 'message', message: value });
    const at = slashQueryAt(value, caret);
    const typedSlash = value.length === message.length + 1 && value[caret - 1] === '/';
    if (at && snippets.length > 0 && (typedSlash || (slash && at.start === slash.start))) {
      if (!slash || at.query !== slash.query) setActive(0);
      setSlash(at);
    } else setSlash(undefined);
  };

  const onAreaKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!slash) return;
    const moved = movedActive(e.key, active, shown.length);
    if (moved !== undefined) {
      e.preventDefault();
      setActive(moved);
    } else if (e.key === 'Enter' && shown[active]) {
      e.preventDefault();
      insert(shown[active], { from: slash.start, to: e.currentTarget.selectionStart });
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      setSlash(undefined);
    }
  };

  const openPicker = () => {
    const el = area.current;
    setSlash(undefined);
    setActive(0);
    setPicker({
      range: { from: el?.selectionStart ?? message.length, to: el?.selectionEnd ?? message.length },
      query: '',
    });
  };
  useEffect(() => {
    if (picker) search.current?.focus();
  }, [picker]);
  const closePicker = () => {
    setPicker(undefined);
    button.current?.focus();
  };

  const onSearchKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!picker) return;
    const moved = movedActive(e.key, active, shown.length);
    if (moved !== undefined) {
      e.preventDefault();
      setActive(moved);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (shown[active]) insert(shown[active], picker.range);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closePicker();
    }
  };

  const activeId = shown[active] ? snippetOptionId(listId, active) : undefined;
  const status =
    slash || picker
      ? shown.length
        ? `${shown.length} snippet${shown.length === 1 ? '' : 's'}: up and down arrows choose, Enter inserts, Escape closes.`
        : 'No snippet matches.'
      : '';

  return (
    <div className="field">
      <div className="row">
        <label htmlFor="message" className="section-title" style={{ marginRight: 'auto' }}>
          Message
        </label>
        <button
          ref={button}
          type="button"
          className="btn btn-sm"
          aria-expanded={Boolean(picker)}
          aria-controls={picker ? `${listId}-picker` : undefined}
          onClick={() => (picker ? closePicker() : openPicker())}
        >
          Insert snippet
        </button>
      </div>
      {picker && (
        <div id={`${listId}-picker`} className="snippet-picker combobox">
          <label htmlFor={`${listId}-search`} className="sr-only">
            Search snippets
          </label>
          <input
            ref={search}
            id={`${listId}-search`}
            className="input"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={activeId}
            aria-describedby={`${listId}-status`}
            autoComplete="off"
            placeholder={snippets.length ? 'Search snippets' : 'No snippets yet'}
            value={picker.query}
            onChange={(e) => {
              setActive(0);
              setPicker({ ...picker, query: e.target.value });
            }}
            onKeyDown={onSearchKeyDown}
            onBlur={(e) => {
              if (!e.currentTarget.parentElement?.contains(e.relatedTarget)) setPicker(undefined);
            }}
          />
          {shown.length > 0 && (
            <SnippetList
              id={listId}
              snippets={shown}
              active={active}
              onPick={(s) => insert(s, picker.range)}
            />
          )}
          {snippets.length === 0 && (
            <p className="hint">
              Add signatures, hashtag groups and text on the <a href="/templates">Templates &amp; snippets</a>{' '}
              page.
            </p>
          )}
        </div>
      )}
      <div className="combobox">
        <textarea
          ref={area}
          id="message"
          className="textarea"
          value={message}
          onChange={(e) => onChange(e.target.value, e.target.selectionStart)}
          onKeyDown={onAreaKeyDown}
          onBlur={() => setSlash(undefined)}
          placeholder="What do you want to share? Type / for snippets."
          rows={8}
          aria-describedby={`counters ${listId}-status`}
          aria-controls={slash ? listId : undefined}
          aria-activedescendant={slash ? activeId : undefined}
        />
        {slash && shown.length > 0 && (
          <SnippetList
            id={listId}
            snippets={shown}
            active={active}
            onPick={(s) =>
              insert(s, { from: slash.start, to: area.current?.selectionStart ?? message.length })
            }
          />
        )}
      </div>
      <p id={`${listId}-status`} className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
      <Counters id="counters" counts={counts} testIdPrefix="counter" />
    </div>
  );
}
