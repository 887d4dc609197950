// A lazily loaded component that was loaded ahead renders in the same render as its parent: no
// Suspense fallback is committed (React would then hold the real content back for 300 ms).
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { preloadable } from '../../../src/app/ui/preloadable';

afterEach(cleanup);

function Counter({ label }: { label: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN((x) => x + 1)}>
      {label} {n}
    </button>
  );
}

/** A module import the test resolves when it likes. */
function deferredModule() {
  let resolve!: () => void;
  let calls = 0;
  const gate = new Promise<void>((r) => (resolve = r));
  const load = () => {
    calls++;
    return gate.then(() => ({ default: Counter }));
  };
  return { load, resolve, calls: () => calls };
}

describe('preloadable', () => {
  it('without a preload, shows the fallback until the module has loaded', async () => {
    const m = deferredModule();
    const View = preloadable(m.load);
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <View label="clicks" />
      </Suspense>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => m.resolve());
    expect(await screen.findByRole('button', { name: 'clicks 0' })).toBeTruthy();
  });

  it('preloaded, renders at once without the fallback, and loads the module once', async () => {
    const m = deferredModule();
    const View = preloadable(m.load);
    const preloading = View.preload();
    m.resolve();
    await preloading;
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <View label="clicks" />
      </Suspense>,
    );
    // Synchronously after render: no fallback was committed.
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByRole('button', { name: 'clicks 0' })).toBeTruthy();
    await View.preload();
    expect(m.calls()).toBe(1);
  });

  it('a component mounted before its module loaded keeps its state when its parent re-renders', async () => {
    const m = deferredModule();
    const View = preloadable(m.load);
    function Parent() {
      const [label, setLabel] = useState('first');
      return (
        <>
          <button type="button" onClick={() => setLabel('second')}>
            rename
          </button>
          <Suspense fallback={<p>Loading…</p>}>
            <View label={label} />
          </Suspense>
        </>
      );
    }
    render(<Parent />);
    await act(async () => m.resolve());
    const counter = await screen.findByRole('button', { name: 'first 0' });
    act(() => counter.click());
    expect(screen.getByRole('button', { name: 'first 1' })).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'rename' }).click());
    // Still the same instance (count kept), now with the new label.
    expect(screen.getByRole('button', { name: 'second 1' })).toBeTruthy();
  });

  it('a failed load is tried again by the next preload', async () => {
    let calls = 0;
    const View = preloadable(() => {
      calls++;
      return calls === 1 ? Promise.reject<{ default: typeof Counter }>(new Error('offline')) : Promise.resolve({ default: Counter });
    });
    await expect(View.preload()).rejects.toThrow('offline');
    expect(View.isLoaded()).toBe(false);
    await View.preload();
    expect(View.isLoaded()).toBe(true);
    render(<View label="again" />);
    expect(screen.getByRole('button', { name: 'again 0' })).toBeTruthy();
    expect(calls).toBe(2);
  });
});
