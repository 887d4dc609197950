// What a tab shows instead of a page: no permission, a screen of a later version, a crash.
import { Component, type ReactNode } from 'react';
import { Button, Callout, Flex, Heading, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';
import { ROUTES, type RouteId } from '../paths';

export function ForbiddenPanel({ route }: { route: RouteId }) {
  return (
    <Flex direction="column" gap="3" p="5" className="ws-panel-message" data-route={route}>
      <Callout.Root color="red" role="alert">
        <Callout.Text>{MSG.forbidden}</Callout.Text>
      </Callout.Root>
    </Flex>
  );
}

/** A screen of a later version: said in plain words (no route names or paths). */
export const NOT_AVAILABLE_TEXT =
  'This part of the workspace is not available yet. It comes with a later version; everything in the menu on the left works as usual.';

export function NotAvailablePanel({ route }: { route: RouteId; href?: string }) {
  return (
    <Flex direction="column" gap="3" p="5" className="ws-panel-message" role="status">
      <Heading as="h2" size="5">
        {ROUTES[route].title}
      </Heading>
      <Text>{NOT_AVAILABLE_TEXT}</Text>
    </Flex>
  );
}

export function TabLoading() {
  return (
    <Flex p="5" role="status" aria-live="polite" aria-busy="true">
      <Text color="gray">Loading…</Text>
    </Flex>
  );
}

/** One page failing keeps the other tabs working; the tab shows the spec's error text. */
export class TabErrorBoundary extends Component<{ children: ReactNode; onReset?: () => void }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  componentDidCatch(error: unknown) {
    console.error('tab crashed', error);
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Flex direction="column" gap="3" p="5" role="alert">
        <Heading as="h2" size="5">
          {MSG.default}
        </Heading>
        <Text>{MSG.errorScreenText}</Text>
        <div>
          <Button variant="soft" onClick={() => this.setState({ error: null })}>
            Try again
          </Button>
        </div>
      </Flex>
    );
  }
}
