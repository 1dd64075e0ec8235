/**
 * Where the keyboard goes when something opens in place of the button that opened it (a form, a confirmation): into
 * it, so a keyboard user carries on there instead of starting again from the top of the page.
 */
import { useEffect, useRef } from 'react';

const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/** A ref whose element (or, for a container, its first enabled control) gets the focus once it appears. */
export function useFocusOnOpen<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const target = el.matches(FOCUSABLE) ? el : el.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
  }, []);
  return ref;
}
