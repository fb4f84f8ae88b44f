'use client';

import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';

/**
 * What takes the focus: an element's id, a ref, or a function that finds the element (and answers
 * null while it is not there yet, e.g. until a `router.refresh()` has removed the old one).
 */
export type FocusTarget = string | RefObject<HTMLElement | null> | (() => HTMLElement | null | undefined);

const find = (target: FocusTarget): HTMLElement | null | undefined =>
  typeof target === 'string'
    ? document.getElementById(target)
    : typeof target === 'function'
      ? target()
      : target.current;

/**
 * Hands the focus on once React has rendered what should take it (docs/web-ui.md, Focus). A
 * `requestAnimationFrame(() => el.focus())` raced React: after an `await` the update is rendered
 * later, so the frame ran first, found nothing (or the control about to go) and the focus fell to
 * <body>. Here the request is kept and tried after every render of the calling component until
 * its target is in the page and enabled; a newer request replaces an older one.
 *
 *   const focusAfterRender = useFocusAfterRender();
 *   setEditing(true);
 *   focusAfterRender('name-field');
 */
export function useFocusAfterRender(): (target: FocusTarget) => void {
  const pending = useRef<FocusTarget>(undefined);
  // A render of this component even when nothing else it shows changes, so the request is tried.
  const [, setRequests] = useState(0);
  useLayoutEffect(() => {
    const target = pending.current;
    if (target === undefined) return;
    const element = find(target);
    if (!element?.isConnected || element.matches(':disabled')) return;
    pending.current = undefined;
    element.focus();
  });
  return useCallback((target: FocusTarget) => {
    pending.current = target;
    setRequests((n) => n + 1);
  }, []);
}
