// Spec §2 global error screen: 'Something went wrong.', the explanation, the current date and
// 'Back to main page'. Render errors are reported with severity Error (console here: no
// error-reporting service is configured).
import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';

/** Today's date under the message: loaded with the date library when the screen shows. */
const ErrorScreenDate = lazy(() => import('./error-screen-date'));

/** The error-reporting hook: one place to plug a real service in. */
export function reportError(error: unknown, context: Record<string, unknown> = {}) {
  console.error({ severity: 'Error', error, ...context });
}

export function ErrorScreen({ onBack }: { onBack?: () => void }) {
  return (
    <main className="error-screen" role="alert">
      <Flex direction="column" align="center" gap="3">
        <Heading as="h1" size="7">
          {MSG.default}
        </Heading>
        <Text as="p" size="3" align="center">
          {MSG.errorScreenText}
        </Text>
        <Suspense fallback={null}>
          <ErrorScreenDate />
        </Suspense>
        <Button size="3" autoFocus onClick={onBack ?? (() => window.location.assign('/'))}>
          {MSG.backToMainPage}
        </Button>
      </Flex>
    </main>
  );
}

type Props = { children: ReactNode; fallback?: (reset: () => void) => ReactNode };

export class ErrorBoundary extends Component<Props, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown render error') };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    reportError(error, { componentStack: info.componentStack });
  }

  reset = () => this.setState({ error: null });

  render() {
    if (this.state.error) return this.props.fallback ? this.props.fallback(this.reset) : <ErrorScreen />;
    return this.props.children;
  }
}
