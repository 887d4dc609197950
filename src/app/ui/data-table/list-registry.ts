// Lists (DataTables) on screen register here, so the one key dispatcher (src/app/keyboard/key-listener)
// can hand j / k / Enter / x / `/` to the right list through the list.* commands. No list has a
// keydown listener of its own for those keys any more.
import type { ListContext } from '../../keyboard/define';

export type ListNav = Omit<ListContext, 'onGrid'> & {
  /** The grid element (role=grid, focusable). */
  element: () => HTMLElement | null;
  /** This list answers keys pressed anywhere in its tab (it belongs to the focused tab). */
  active: () => boolean;
};

const lists = new Set<ListNav>();

export function registerList(list: ListNav): () => void {
  lists.add(list);
  return () => void lists.delete(list);
}

/**
 * The list a key pressed on `target` goes to: the list containing the target (a key inside a
 * grid always goes to that grid), else the active list of the focused tab when the target is not
 * inside another list. Null when there is none.
 */
export function listFor(target: EventTarget | null): ListContext | null {
  const el = target instanceof Node ? target : null;
  let chosen: ListNav | null = null;
  let onGrid = false;
  for (const l of lists) {
    const grid = l.element();
    if (grid && el && grid.contains(el)) {
      chosen = l;
      onGrid = grid === el;
      break;
    }
  }
  if (!chosen) {
    if (el instanceof Element && el.closest('[role="grid"]')) return null; // a grid that is not ours owns it
    for (const l of lists) {
      if (l.active() && l.element()?.isConnected) {
        chosen = l;
        break;
      }
    }
  }
  if (!chosen) return null;
  const l = chosen;
  return {
    onGrid,
    move: l.move,
    canOpen: l.canOpen,
    open: l.open,
    selectable: l.selectable,
    toggleSelect: l.toggleSelect,
    hasFilter: l.hasFilter,
    focusFilter: l.focusFilter,
  };
}
