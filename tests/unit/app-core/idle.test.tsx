import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { cleanup } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../../src/app/state/store';
import { currentUserAtom, sessionAtom, SESSION_KEY } from '../../../src/app/state/session';
import { IDLE_TIMEOUT_MS, LAST_ACTIVITY_KEY, idleDialogAtom, startIdleWatch } from '../../../src/app/state/idle';
import { IdleDialogs } from '../../../src/app/shell/idle-dialogs';
import { MSG } from '../../../src/shared/messages';
import { Providers, polyfillDom, resetApp, session } from './helpers';
import { makeUserInfo } from '../../helpers/fixtures';

const MIN = 60_000;
let now = 0;
let tick: () => void = () => {};
let stop: () => void = () => {};

function watch() {
  stop = startIdleWatch({
    now: () => now,
    throttleMs: 0,
    setInterval: (fn) => {
      tick = fn;
      return 1;
    },
    clearInterval: () => {},
  });
}

/** What another tab does: write localStorage, and this tab receives a storage event. */
function otherTabWrites(key: string, value: string | null) {
  const oldValue = localStorage.getItem(key);
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, oldValue, newValue: value, storageArea: localStorage }));
}

beforeEach(() => {
  resetApp();
  polyfillDom();
  now = 1_700_000_000_000;
  appStore.set(sessionAtom, session('ivy'));
  appStore.set(currentUserAtom, makeUserInfo({ email: 'ivy@example.test', firstName: 'Ivy', lastName: 'I' }));
  window.history.replaceState(null, '', '/persons');
});
afterEach(() => {
  cleanup();
  stop();
});

describe('idle timeout across tabs', () => {
  it('is 30 minutes', () => {
    expect(IDLE_TIMEOUT_MS).toBe(30 * MIN);
  });

  it('opens the session-expired dialog after 30 idle minutes; closing it logs out to /login', async () => {
    render(
      <Providers>
        <IdleDialogs />
      </Providers>,
    );
    watch();
    now += 29 * MIN;
    act(() => tick());
    expect(appStore.get(idleDialogAtom)).toBeNull();
    now += 1 * MIN;
    act(() => tick());
    expect(appStore.get(idleDialogAtom)).toBe('expired');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(MSG.sessionExpired);

    await userEvent.click(screen.getByRole('button', { name: MSG.ok }));
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('activity in another tab keeps this tab alive', () => {
    watch();
    now += 20 * MIN;
    otherTabWrites(LAST_ACTIVITY_KEY, String(now)); // the user works in the other tab
    now += 25 * MIN; // 45 minutes since this tab saw its own activity, 25 since the other tab's
    tick();
    expect(appStore.get(idleDialogAtom)).toBeNull();
    now += 5 * MIN;
    tick();
    expect(appStore.get(idleDialogAtom)).toBe('expired');
  });

  it("also counts the other tab's activity when only localStorage changed (no event yet)", () => {
    watch();
    now += 29 * MIN;
    localStorage.setItem(LAST_ACTIVITY_KEY, String(now));
    now += 10 * MIN;
    tick();
    expect(appStore.get(idleDialogAtom)).toBeNull();
  });

  it('records own activity (keydown, pointerdown, wheel) for the other tabs', () => {
    watch();
    now += 10 * MIN;
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j' }));
    expect(localStorage.getItem(LAST_ACTIVITY_KEY)).toBe(String(now));
    now += 25 * MIN;
    tick();
    expect(appStore.get(idleDialogAtom)).toBeNull();
  });

  it('writes nothing while signed out', () => {
    appStore.set(sessionAtom, null);
    localStorage.clear();
    watch();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    now += 40 * MIN;
    tick();
    expect(localStorage.getItem(LAST_ACTIVITY_KEY)).toBeNull();
    expect(appStore.get(idleDialogAtom)).toBeNull();
  });

  it("shows 'Logged out' when another tab ended the session for inactivity", async () => {
    render(
      <Providers>
        <IdleDialogs />
      </Providers>,
    );
    watch();
    now += 31 * MIN; // idle here too, but this tab has not looked yet
    act(() => otherTabWrites(SESSION_KEY, null));
    expect(appStore.get(currentUserAtom)).toBeNull();
    expect(window.location.pathname).toBe('/login');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(MSG.loggedOutTitle);
    expect(dialog).toHaveTextContent(MSG.loggedOutInactivity);
    await userEvent.click(screen.getByRole('button', { name: MSG.ok }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a deliberate logout in another tab signs this tab out without the inactivity dialog', () => {
    watch();
    now += 5 * MIN;
    otherTabWrites(SESSION_KEY, null);
    expect(appStore.get(currentUserAtom)).toBeNull();
    expect(appStore.get(idleDialogAtom)).toBeNull();
    expect(window.location.pathname).toBe('/login');
  });
});
