// Reloading or closing the browser with unsaved changes in any tab asks first (the browser's own
// 'Leave site?' question: beforeunload cannot show our text). The handler exists only while some
// tab is dirty, so a clean workspace never delays unloading (and keeps the back/forward cache).
import { useEffect } from 'react';
import { atom, useAtomValue } from 'jotai';
import { workspaceAtom } from './state';

/** Whether any open tab, in any pane, has unsaved changes. */
export const anyDirtyAtom = atom((get) => Object.values(get(workspaceAtom).panes).some((p) => p.tabs.some((t) => t.dirty)));

export function onBeforeUnload(e: BeforeUnloadEvent) {
  e.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  e.returnValue = '';
}

export function useUnsavedChangesGuard() {
  const dirty = useAtomValue(anyDirtyAtom);
  useEffect(() => {
    if (!dirty) return;
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
