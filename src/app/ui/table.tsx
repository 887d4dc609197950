// Radix Themes' Table with a scroll region the keyboard can reach. Radix's Table.Root scrolls its
// table inside a scroll area whose viewport never takes the focus: a History whose entries are
// wider than its card (a long value, a narrow pane) scrolls sideways where a keyboard user cannot
// follow (axe: scrollable-region-focusable). Here the viewport is a region named after the table
// (`aria-label`, required) and is in the Tab order while it has something to scroll; arrows then
// scroll it. The rest of the parts are Radix's own. Pages import Table from here (ESLint
// no-restricted-imports, eslint/ui-imports.js).
import { forwardRef, useCallback, useEffect, useRef, type ComponentPropsWithoutRef, type ComponentRef, type ForwardedRef } from 'react';
import { Table as ThemeTable } from '@radix-ui/themes';

type RootProps = Omit<ComponentPropsWithoutRef<typeof ThemeTable.Root>, 'aria-label'> & {
  /** The table's name: its scroll region is called so. */
  'aria-label': string;
};

/** Whether an element has content out of its sight (a pixel of rounding is not). */
export function scrolls(el: HTMLElement): boolean {
  return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
}

/** Makes a Radix scroll area's viewport a named region, focusable exactly while it scrolls; returns the clean-up. */
export function keyboardScrollable(viewport: HTMLElement, label: string): () => void {
  viewport.setAttribute('role', 'region');
  viewport.setAttribute('aria-label', label);
  const update = () => {
    if (scrolls(viewport)) viewport.tabIndex = 0;
    else viewport.removeAttribute('tabindex');
  };
  update();
  if (typeof ResizeObserver === 'undefined') return () => undefined;
  // The viewport resizes with its pane; its content with the rows.
  const ro = new ResizeObserver(update);
  ro.observe(viewport);
  if (viewport.firstElementChild) ro.observe(viewport.firstElementChild);
  return () => ro.disconnect();
}

function setRefs<T>(el: T | null, own: { current: T | null }, ref: ForwardedRef<T>) {
  own.current = el;
  if (typeof ref === 'function') ref(el);
  else if (ref) ref.current = el;
}

const Root = forwardRef<ComponentRef<typeof ThemeTable.Root>, RootProps>(function TableRoot({ 'aria-label': label, children, ...props }, ref) {
  const own = useRef<HTMLDivElement | null>(null);
  const setRef = useCallback((el: HTMLDivElement | null) => setRefs(el, own, ref), [ref]);
  useEffect(() => {
    const viewport = own.current?.querySelector<HTMLElement>('.rt-ScrollAreaViewport');
    return viewport ? keyboardScrollable(viewport, label) : undefined;
  }, [label]);
  return (
    <ThemeTable.Root ref={setRef} {...props}>
      {children}
    </ThemeTable.Root>
  );
});

export const Table = { ...ThemeTable, Root };
