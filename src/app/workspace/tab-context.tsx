// Contract between the workspace (owner: workspace helper) and the pages rendered inside tabs.
import { createContext, useContext } from 'react';
import type { RouteId } from '../paths';

export type TabApi = {
  tabId: string;
  paneId: string;
  route: RouteId;
  params: Record<string, string>;
  /** Whether this tab is the focused tab of the focused pane. */
  active: boolean;
  /** Tab title (spec page title: customer name, 'Edit {first} {last}', ...). Also the browser title when focused. */
  setTitle: (title: string) => void;
  /** Unsaved changes: shows a dot and makes closing ask the spec's question. */
  setDirty: (dirty: boolean) => void;
  /** Navigate this tab to another route (replaces its content, keeps history for back()). */
  navigate: (href: string) => void;
  /** Spec "navigates back": previous route of this tab, or close the tab if there is none. */
  back: () => void;
  close: () => void;
};

const noop = () => {};
export const TabContext = createContext<TabApi>({
  tabId: 'standalone',
  paneId: 'standalone',
  route: 'persons',
  params: {},
  active: true,
  setTitle: noop,
  setDirty: noop,
  navigate: noop,
  back: noop,
  close: noop,
});

export const useTab = () => useContext(TabContext);
