// Imperative confirmation: `await confirm({ message })` resolves true (confirmed) or false
// (cancelled, Escape). <ConfirmHost /> is mounted once by the app and shows one request at a
// time; later requests wait their turn. Focus starts on Cancel, so a stray Enter never confirms;
// when the question is answered the focus goes back to what had it when it was asked (the switch
// or button that asked), so the keyboard carries on where it was.
// A request opens over the pane it is about: the one named by `layer` (closing a tab asks over the
// pane holding the tab, wherever the focus is), else the pane holding the focus (ui/dialog.tsx);
// outside any pane it covers the window.
import { useSyncExternalStore } from 'react';
import { Button, Flex, VisuallyHidden } from '@radix-ui/themes';
import { AlertDialog, dialogLayerOf } from './dialog';
import { MSG } from '../../shared/messages';

export type ConfirmOptions = {
  title?: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
  /**
   * The dialog layer of the pane the question is about (ui/dialog.tsx dialogLayerOf). Left out:
   * the pane holding the focus. null: the whole window.
   */
  layer?: HTMLElement | null;
};

type Request = ConfirmOptions & { id: number; resolve: (ok: boolean) => void; layer: HTMLElement | null; returnTo: Element | null };

let queue: Request[] = [];
let seq = 0;
let hosts = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function confirm(options: ConfirmOptions): Promise<boolean> {
  // Without a host nobody could answer; fall back to the browser's own dialog rather than hang.
  if (hosts === 0 && typeof window !== 'undefined' && typeof window.confirm === 'function') {
    try {
      return Promise.resolve(!!window.confirm(options.message));
    } catch {
      return Promise.resolve(false);
    }
  }
  return new Promise<boolean>((resolve) => {
    const layer = options.layer !== undefined ? options.layer : typeof document === 'undefined' ? null : dialogLayerOf(document.activeElement);
    const returnTo = typeof document === 'undefined' ? null : document.activeElement;
    queue = [...queue, { ...options, id: ++seq, resolve, layer, returnTo }];
    emit();
  });
}

function settle(id: number, ok: boolean) {
  const req = queue.find((r) => r.id === id);
  if (!req) return;
  queue = queue.filter((r) => r.id !== id);
  emit();
  req.resolve(ok);
  // Once the dialog has gone (and no other question took its place), the asker gets the focus back.
  setTimeout(() => {
    const el = req.returnTo;
    if (queue.length || !(el instanceof HTMLElement) || !el.isConnected) return;
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) el.focus();
  }, 0);
}

/** Test helper: answer every pending request with false (e.g. between tests). */
export function cancelAllConfirms() {
  for (const r of [...queue]) settle(r.id, false);
}

const hostSubscribe = (l: () => void) => {
  hosts++;
  const off = subscribe(l);
  return () => {
    hosts--;
    off();
  };
};

export function ConfirmHost() {
  const current = useSyncExternalStore(
    hostSubscribe,
    () => queue[0],
    () => undefined,
  );
  return (
    <AlertDialog.Root open={!!current} onOpenChange={(open) => !open && current && settle(current.id, false)}>
      {current && (
        <AlertDialog.Content
          maxWidth="32rem"
          container={current.layer?.isConnected ? current.layer : undefined}
          // settle() gives the focus back to the asker
          onCloseAutoFocus={(e) => e.preventDefault()}
        >
          {current.title ? (
            <AlertDialog.Title>{current.title}</AlertDialog.Title>
          ) : (
            <VisuallyHidden>
              <AlertDialog.Title>Confirm</AlertDialog.Title>
            </VisuallyHidden>
          )}
          <AlertDialog.Description size="3">{current.message}</AlertDialog.Description>
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray">
                {current.cancelLabel ?? MSG.uiCancel}
              </Button>
            </AlertDialog.Cancel>
            <Button color={current.danger ? 'red' : undefined} onClick={() => settle(current.id, true)}>
              {current.confirmLabel ?? 'OK'}
            </Button>
          </Flex>
        </AlertDialog.Content>
      )}
    </AlertDialog.Root>
  );
}
