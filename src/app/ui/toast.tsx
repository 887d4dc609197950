// Toasts (spec §2 shared widgets): success, warning, info, error; top centre; duplicates
// suppressed; at most 1 at a time, 2 in the sign-in and person areas. A tiny external store so
// `toast.error(...)` works from anywhere (http client, query cache, commands).
import { useSyncExternalStore, useEffect, useRef } from 'react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';
export type ToastArea = 'signin' | 'persons' | 'default';
export type ToastOptions = { area?: ToastArea; durationMs?: number };
export type ToastItem = { id: number; kind: ToastKind; message: string; area: ToastArea; durationMs: number };

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
  timers.set(t.id, setTimeout(() => dismiss(t.id), t.durationMs));
}

function show(kind: ToastKind, message: string, opts: ToastOptions = {}): number {
  const dup = items.find((t) => t.kind === kind && t.message === message);
  if (dup) {
    schedule(dup); // the same message again keeps the one on screen a little longer
    return dup.id;
  }
  const area = opts.area ?? areaForPath(typeof window === 'undefined' ? '' : window.location.pathname);
  const item: ToastItem = { id: nextId++, kind, message, area, durationMs: opts.durationMs ?? DURATION[kind] };
  let next = [...items, item];
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
      <span className="toast-icon" aria-hidden="true">{ICON[t.kind]}</span>
      <span className="toast-message">{t.message}</span>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
        ×
      </button>
    </div>
  );
}

/** Mounted once by the app, above everything else. */
export function ToastHost() {
  const list = useToasts();
  return (
    <div className="toast-region" aria-label="Notifications" role="region">
      {list.map((t) => (
        <ToastView key={t.id} t={t} />
      ))}
    </div>
  );
}
