// Dialogs belong to the pane they were opened from. A page's Dialog and AlertDialog (Radix Themes,
// re-exported here with the same parts) render into that pane's dialog layer, an element marked
// `data-dialog-layer` that the workspace gives each pane: the overlay covers the pane, the dialog
// is centred over it and never wider than it, and the panes beside it stay in sight. Outside a
// pane (sign-in, the palette, app-wide prompts) they cover the window as before.
import { createContext, forwardRef, useContext, type ComponentPropsWithoutRef, type ComponentRef } from 'react';
import { AlertDialog as ThemeAlertDialog, Dialog as ThemeDialog } from '@radix-ui/themes';

/** Where the dialogs of the page rendered below go: the layer of its pane, or null (the window). */
export const DialogLayerContext = createContext<() => HTMLElement | null>(() => null);

/** The dialog layer of the pane an element is in (the element that is marked, or holds it), or null. */
export function dialogLayerOf(el: Element | null | undefined): HTMLElement | null {
  return el?.closest<HTMLElement>('[data-dialog-layer]') ?? null;
}

const layer = (find: () => HTMLElement | null) => {
  const el = find();
  return el?.isConnected ? el : undefined;
};

const DialogContent = forwardRef<ComponentRef<typeof ThemeDialog.Content>, ComponentPropsWithoutRef<typeof ThemeDialog.Content>>(function DialogContent(
  { container, ...props },
  ref,
) {
  const find = useContext(DialogLayerContext);
  return <ThemeDialog.Content ref={ref} container={container ?? layer(find)} {...props} />;
});

const AlertDialogContent = forwardRef<ComponentRef<typeof ThemeAlertDialog.Content>, ComponentPropsWithoutRef<typeof ThemeAlertDialog.Content>>(
  function AlertDialogContent({ container, ...props }, ref) {
    const find = useContext(DialogLayerContext);
    return <ThemeAlertDialog.Content ref={ref} container={container ?? layer(find)} {...props} />;
  },
);

export const Dialog = { ...ThemeDialog, Content: DialogContent };
export const AlertDialog = { ...ThemeAlertDialog, Content: AlertDialogContent };
