// React.lazy with a preload: a component whose module has already been loaded renders at once.
// A plain lazy component suspends on its first render even then, and React holds back the reveal
// of content that replaces a Suspense fallback until the fallback has been shown for 300 ms: on
// start-up that is a fallback frame, a second render and up to 300 ms of waiting per lazy layer.
import { lazy, useState, type ComponentType } from 'react';

export type Preloadable<P extends object, X extends object = object> = ComponentType<P> & {
  /** Starts loading the module (once; again after a failure); resolves with what `load` resolved with. */
  preload: () => Promise<{ default: ComponentType<P> } & X>;
  /** Whether the module has loaded (the component then renders without suspending). */
  isLoaded: () => boolean;
};

export function preloadable<P extends object, X extends object = object>(load: () => Promise<{ default: ComponentType<P> } & X>): Preloadable<P, X> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> } & X> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  const Lazy = lazy(preload);
  function Preloaded(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Preloaded, { preload, isLoaded: () => !!loaded });
}
