// Toasts (spec §2 shared widgets): success, warning, info, error; top centre; duplicates
// suppressed; at most 1 at a time, 2 in the sign-in and person areas. A tiny external store so
// `toast.error(...)` works from anywhere (http client, query cache, commands).
// An error toast does not outlive its error: a success toast replaces the error toasts on screen
// (what failed has now worked), an error given a `key` goes with `toast.resolve(key)` (e.g. a
// query that failed and then loaded), and `toast.dismissErrors()` clears them all (sign-in).
// Signed in, the toasts sit below the top bar and the top row of tab strips, never over them.
import { useSyncExternalStore, useEffect, useLayoutEffect, useRef, useState } from 'react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export type ToastArea = 'signin' | 'persons' | 'default';
export type ToastOptions = { area?: ToastArea; durationMs?: number; /** what the toast is about: toast.resolve(key) removes it */ key?: string };
export type ToastItem = { id: number; kind: ToastKind; message: string; area: ToastArea; durationMs: number; key?: string };

/** Spec §9: toast maximum 1 by default, 2 in the sign-in and person areas. */
export const TOAST_LIMIT: Record<ToastArea, number> = { signin: 2, persons: 2, default: 1 };
const DURATION: Record<ToastKind, number> = { success: 5000, info: 5000, warning: 7000, error: 8000 };

/** The area a toast belongs to when the caller does not say: taken from the current path. */
export function areaForPath(path: string): ToastArea {
  if (path === '/login' || path === '/forgot-password') return 'signin';
  if (path === '/persons' || path.startsWith('/persons/') || path === '/edit-own-profile') return 'persons';
  return 'default';
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const emit = () => listeners.forEach((l) => l());

function schedule(t: ToastItem) {
  clearTimeout(timers.get(t.id));
  timers.set(
    t.id,
    setTimeout(() => dismiss(t.id), t.durationMs),
  );
}

function show(kind: ToastKind, message: string, opts: ToastOptions = {}): number {
  const dup = items.find((t) => t.kind === kind && t.message === message);
  if (dup) {
    schedule(dup); // the same message again keeps the one on screen a little longer
    return dup.id;
  }
  const area = opts.area ?? areaForPath(typeof window === 'undefined' ? '' : window.location.pathname);
  const item: ToastItem = { id: nextId++, kind, message, area, durationMs: opts.durationMs ?? DURATION[kind], key: opts.key };
  // A success means the failure before it is over: its error toasts go.
  let next = [...(kind === 'success' ? withoutErrors(items) : items), item];
  // Oldest first out when over the limit of the newest toast's area.
  while (next.length > TOAST_LIMIT[area]) {
    clearTimeout(timers.get(next[0].id));
    timers.delete(next[0].id);
    next = next.slice(1);
  }
  items = next;
  schedule(item);
  emit();
  return item.id;
}

export function dismiss(id: number) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (!items.some((t) => t.id === id)) return;
  items = items.filter((t) => t.id !== id);
  emit();
}

function withoutErrors(list: ToastItem[], key?: string): ToastItem[] {
  return list.filter((t) => {
    const drop = t.kind === 'error' && (key === undefined || t.key === key);
    if (drop) {
      clearTimeout(timers.get(t.id));
      timers.delete(t.id);
    }
    return !drop;
  });
}

/** Removes the error toasts (all, or those shown with `key`): the error they reported is over. */
export function dismissErrors(key?: string) {
  const next = withoutErrors(items, key);
  if (next.length === items.length) return;
  items = next;
  emit();
}

export function dismissAll() {
  timers.forEach((t) => clearTimeout(t));
  timers.clear();
  items = [];
  emit();
}

/** Current toasts (oldest first). */
export const getToasts = (): readonly ToastItem[] => items;

export const toast = {
  success: (message: string, opts?: ToastOptions) => show('success', message, opts),
  error: (message: string, opts?: ToastOptions) => show('error', message, opts),
  warning: (message: string, opts?: ToastOptions) => show('warning', message, opts),
  info: (message: string, opts?: ToastOptions) => show('info', message, opts),
  dismiss,
  /** The error reported under `key` is fixed. */
  resolve: (key: string) => dismissErrors(key),
  dismissErrors: () => dismissErrors(),
};

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useToasts() {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}

const ICON: Record<ToastKind, string> = { success: '✓', error: '!', warning: '!', info: 'i' };

function ToastView({ t }: { t: ToastItem }) {
  const ref = useRef<HTMLDivElement>(null);
  // Hovering or focusing a toast holds it on screen; leaving restarts its timer.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const hold = () => clearTimeout(timers.get(t.id));
    const resume = () => schedule(t);
    el.addEventListener('pointerenter', hold);
    el.addEventListener('focusin', hold);
    el.addEventListener('pointerleave', resume);
    el.addEventListener('focusout', resume);
    return () => {
      el.removeEventListener('pointerenter', hold);
      el.removeEventListener('focusin', hold);
      el.removeEventListener('pointerleave', resume);
      el.removeEventListener('focusout', resume);
    };
  }, [t]);
  return (
    <div
      ref={ref}
      className={`toast toast-${t.kind}`}
      role={t.kind === 'error' ? 'alert' : 'status'}
      aria-live={t.kind === 'error' ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-kind={t.kind}
    >
      <span className="toast-icon" aria-hidden="true">
        {ICON[t.kind]}
      </span>
      <span className="toast-message">{t.message}</span>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Where the toasts start: below the top bar and the top row of tab strips (so they never cover a
 * tab), 16 px from the top on the signed-out pages.
 */
export function toastTop(doc: Document = document): number {
  let bottom = 0;
  for (const el of doc.querySelectorAll('.top-bar, .ws-tabstrip')) {
    const r = el.getBoundingClientRect();
    if (r.height > 0 && r.top < 160) bottom = Math.max(bottom, r.bottom);
  }
  return bottom > 0 ? Math.round(bottom) + 8 : 16;
}

/** Mounted once by the app, above everything else. */
export function ToastHost() {
  const list = useToasts();
  const [top, setTop] = useState(16);
  const shown = list.length > 0;
  useLayoutEffect(() => {
    if (!shown) return;
    const place = () => setTop(toastTop());
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [shown, list]);
  return (
    <div className="toast-region" aria-label="Notifications" role="region" style={{ top }}>
      {list.map((t) => (
        <ToastView key={t.id} t={t} />
      ))}
    </div>
  );
}
