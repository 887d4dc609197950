// The whole client: jotai store, query client, Radix theme, the global error screen, toasts,
// the confirm host and the idle dialogs. Signed out: /login and /forgot-password (everything
// else goes to / and from there to /login). Signed in: the shell around the workspace, which
// owns the browser URL. The one place that takes the command registry (commands/index.ts): the
// workspace's palette, key listener and cheat sheet get it from here.
import '@radix-ui/themes/styles.css';
import './styles.css';
import { useEffect, useLayoutEffect } from 'react';
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { QueryClientProvider } from '@tanstack/react-query';
import { Theme } from '@radix-ui/themes';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { appStore } from './state/store';
import { queryClient } from './api/query-client';
import { restoreSession } from './api/auth';
import { currentUserAtom, sessionAtom } from './state/session';
import { startIdleWatch } from './state/idle';
import { getHref, ROUTES } from './paths';
import { ToastHost, toast } from './ui/toast';
import { ConfirmHost } from './ui/confirm-dialog';
import { ErrorBoundary } from './shell/error-screen';
import { IdleDialogs } from './shell/idle-dialogs';
import { Shell } from './shell/shell';
import { SignInPage } from './features/auth/sign-in-page';
import { ForgotPasswordPage } from './features/auth/forgot-password-page';
import { ResetPasswordPage, RESET_PASSWORD_PATH } from './features/auth/reset-password-page';
import { Workspace } from './workspace/workspace';
import { COMMANDS } from '../../commands/index';
import { rememberReturnPath } from './shell/return-to';

const AUTH_PATHS = new Set<string>([ROUTES.login.pattern, ROUTES.forgotPassword.pattern, RESET_PASSWORD_PATH]);

/** Back from an identity provider: the hash carries the provider's answer. */
const isProviderReturn = () => /^#(code|id_token)=/.test(window.location.hash);

export function SignedOutRoutes() {
  if (isProviderReturn()) return <SignInPage />;
  return (
    <Switch>
      <Route path={ROUTES.login.pattern} component={SignInPage} />
      <Route path={ROUTES.forgotPassword.pattern} component={ForgotPasswordPage} />
      <Route path={RESET_PASSWORD_PATH} component={ResetPasswordPage} />
      {/* Keys: wouter's Redirect navigates on mount only, so the two must never share an instance. */}
      <Route path="/" key="root">
        <Redirect key="to-login" to={getHref('login')} replace />
      </Route>
      <Route key="unknown">
        <RememberAndGoToRoot />
      </Route>
    </Switch>
  );
}

/**
 * Spec: an unknown path while signed out goes to the root (and from there to /login). A
 * workspace route among them (a deep link) is remembered first and opened after sign-in.
 */
function RememberAndGoToRoot() {
  const [location] = useLocation();
  useLayoutEffect(() => rememberReturnPath(location), [location]);
  return <Redirect key="to-root" to="/" replace />;
}

function SignedIn() {
  const [location] = useLocation();
  // Signed in: the sign-in errors on screen ('Your session has expired, please login.', a failed
  // resend ...) are over.
  useEffect(() => toast.dismissErrors(), []);
  // Spec: a signed-in visit to the login path goes to the root; the workspace turns '/' into
  // the landing area (or keeps the restored layout's focused tab).
  if (AUTH_PATHS.has(location)) return <Redirect to="/" replace />;
  return (
    <Shell>
      <Workspace commands={COMMANDS} />
    </Shell>
  );
}

function Splash() {
  return (
    <div className="splash" role="status" aria-live="polite">
      Loading…
    </div>
  );
}

export function Root() {
  const session = useAtomValue(sessionAtom);
  const user = useAtomValue(currentUserAtom);
  const [location] = useLocation();

  useEffect(() => startIdleWatch(), []);
  // Start-up (and a sign-in in another tab): with credentials but no user yet, fetch the user.
  useEffect(() => {
    if (session && !user) void restoreSession();
  }, [session, user]);

  if (session && user) return <SignedIn />;
  // While the user loads, the sign-in page stays up (its button shows progress); elsewhere a splash.
  if (session && !AUTH_PATHS.has(location)) return <Splash />;
  return <SignedOutRoutes />;
}

export function App() {
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <Theme accentColor="indigo" grayColor="slate" radius="medium" panelBackground="solid">
          <ErrorBoundary>
            <Root />
          </ErrorBoundary>
          <IdleDialogs />
          <ConfirmHost />
          <ToastHost />
        </Theme>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
