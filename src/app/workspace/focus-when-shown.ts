// A page that puts the keyboard in one of its fields when its tab becomes active (Bulk Update's
// serial field, for the next scan). A tab also becomes active when a control of its page is
// pressed while the page is in the other pane (pane-view.tsx: a press makes its pane the focused
// one). Then the press decides where the focus goes: focusing the field scrolls it into view, and
// on a page scrolled down that moves the pressed control from under the pointer before its
// release, so the click lands on something else and the button does nothing.
import { useEffect, type RefObject } from 'react';

/** Where the pointer press under way started (pointerdown until pointerup or pointercancel), or null. */
let pressed: Element | null = null;
let watching = false;

/** Follows pointer presses on the whole document (once, for the page's life: listeners on window, before any pane sees the press). */
function watchPresses() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('pointerdown', (e) => (pressed = e.target instanceof Element ? e.target : null), true);
  const end = () => (pressed = null);
  window.addEventListener('pointerup', end, true);
  window.addEventListener('pointercancel', end, true);
}

/** Whether a pointer press under way started inside `el`. */
export const pressUnderWayIn = (el: Element | null) => !!el && !!pressed && el.contains(pressed);

/**
 * Focuses `target` when `active` turns true, unless the page (`root`) is being pressed: a click on
 * one of its controls then stays that control's.
 */
export function useFocusWhenShown(active: boolean, target: RefObject<HTMLElement | null>, root: RefObject<HTMLElement | null>) {
  useEffect(watchPresses, []);
  useEffect(() => {
    if (!active) return;
    const page = root.current;
    if (pressUnderWayIn(page)) return;
    target.current?.focus();
  }, [active, target, root]);
}
