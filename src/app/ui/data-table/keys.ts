// Single-key shortcuts must never fire while the user types. One test for "typing".

const TEXT_INPUT_TYPES = new Set([
  'text', 'search', 'email', 'password', 'tel', 'url', 'number', 'date', 'datetime-local', 'time', 'month', 'week',
]);

/** True when a key press on `target` is text entry (inputs, text areas, selects, editable content, comboboxes). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(target.type) || target.type === '';
  if ((target as HTMLElement).isContentEditable) return true;
  const role = target.getAttribute('role');
  return role === 'textbox' || role === 'combobox' || role === 'searchbox' || role === 'spinbutton';
}

/** True when a key is a bare single key (no Ctrl, ⌘ or Alt; Shift is allowed for symbols). */
export const isBareKey = (e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean }) => !e.ctrlKey && !e.metaKey && !e.altKey;

/** Inside a modal dialog or menu, list keys belong to that overlay. */
export const isInOverlay = (target: EventTarget | null) =>
  target instanceof Element && !!target.closest('[role="dialog"],[role="alertdialog"],[role="menu"],[role="listbox"]');
