// jsdom has no ResizeObserver, and Radix's scroll area, poppers and menus watch element sizes.
import { vi } from 'vitest';

/** Puts in a ResizeObserver that never reports (none when the environment has one). */
export function stubResizeObserver() {
  if (!('ResizeObserver' in globalThis))
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
}
