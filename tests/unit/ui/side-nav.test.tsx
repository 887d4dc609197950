import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SideNav, SIDE_NAV_COLLAPSE_BELOW } from '../../../src/app/shell/side-nav';
import { installDomGaps, renderWithApp, resetAll, signIn } from '../workspace/helpers';

beforeAll(installDomGaps);

/** A window `width` px wide, as far as matchMedia('(max-width: …px)') is concerned; resize() changes it. */
function stubWidth(width: number) {
  let w = width;
  const lists = new Set<() => void>();
  const original = window.matchMedia;
  window.matchMedia = vi.fn((query: string) => {
    const max = Number(/max-width:\s*([\d.]+)px/.exec(query)?.[1] ?? Infinity);
    return {
      get matches() {
        return w <= max;
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, l: () => void) => lists.add(l),
      removeEventListener: (_: string, l: () => void) => lists.delete(l),
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  });
  return {
    resize(next: number) {
      w = next;
      act(() => lists.forEach((l) => l()));
    },
    restore() {
      window.matchMedia = original;
    },
  };
}

let restore: (() => void) | null = null;
afterEach(() => {
  cleanup();
  restore?.();
  restore = null;
});

function renderNav(width: number) {
  const win = stubWidth(width);
  restore = win.restore;
  resetAll('/persons');
  signIn('user-1');
  renderWithApp(<SideNav />);
  return win;
}

describe('side nav', () => {
  it('is expanded from 1,100 px up', () => {
    renderNav(1280);
    expect(SIDE_NAV_COLLAPSE_BELOW).toBe(1100);
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveAttribute('data-collapsed');
    expect(screen.getByRole('link', { name: 'User Management' })).not.toHaveAttribute('title');
  });

  it('collapses to icons below 1,100 px, and back when the window grows; links keep their names and the Tab order', async () => {
    const win = renderNav(1099);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav).toHaveAttribute('data-collapsed');
    const link = screen.getByRole('link', { name: 'User Management' });
    expect(link).toHaveAttribute('title', 'User Management'); // tooltip for the icon
    await userEvent.tab();
    expect(screen.getAllByRole('link')[0]).toHaveFocus();
    win.resize(1100);
    expect(nav).not.toHaveAttribute('data-collapsed');
    win.resize(900);
    expect(nav).toHaveAttribute('data-collapsed');
  });
});
