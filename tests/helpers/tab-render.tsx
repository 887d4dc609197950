// A page rendered as the workspace renders a tab's page: the jotai store, a query client, Radix
// Theme and the tab's context around it.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider, type createStore } from 'jotai';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Theme } from '@radix-ui/themes';
import { TabContext, type TabApi } from '../../src/app/workspace/tab-context';

/** A query client for a test: no retries, so a failed request shows its error at once. */
export const testQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

export function renderInTab(ui: ReactNode, opts: { store: ReturnType<typeof createStore>; tab: TabApi; queryClient: QueryClient }) {
  return render(
    <Provider store={opts.store}>
      <QueryClientProvider client={opts.queryClient}>
        <Theme>
          <TabContext.Provider value={opts.tab}>{ui}</TabContext.Provider>
        </Theme>
      </QueryClientProvider>
    </Provider>,
  );
}
