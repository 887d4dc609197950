// The whole client: jotai store, query client, Radix theme, the global error screen, toasts,
// the confirm host and the idle dialogs. Signed out: /login and /forgot-password (everything
// else goes to / and from there to /login). Signed in: the shell around the workspace, which
// owns the browser URL. The one place that takes the command registry (commands/index.ts): the
// workspace's palette, key listener and cheat sheet get it from here. The signed-in part (shell,
// workspace, commands and every feature behind them) is its own chunk, loaded after sign-in (and
// fetched ahead while the sign-in page is idle), so the sign-in page loads only what it shows.
// Radix Themes' tokens and the rules of the components the sign-in page uses; the rest comes with
// the workspace (bin/radix-css.ts).
import 'virtual:radix-sign-in.css';
import './styles.css';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { QueryClientProvider } from '@tanstack/react-query';
import { Theme } from '@radix-ui/themes';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { appStore } from './state/store';
import { queryClient } from './api/query-client';
import { restoreSession } from './api/auth';
import { currentUserAtom, sessionAtom } from './state/session';
import { idleDialogAtom, startIdleWatch } from './state/idle';
import { getHref, ROUTES } from './paths';
import { ToastHost, toast } from './ui/toast';
import { ErrorBoundary } from './shell/error-screen';
import { preloadable } from './ui/preloadable';
import { SignInPage } from './features/auth/sign-in-page';
import { ForgotPasswordPage } from './features/auth/forgot-password-page';
import { ResetPasswordPage, RESET_PASSWORD_PATH } from './features/auth/reset-password-page';
import { rememberReturnPath } from './shell/return-to';

const AUTH_PATHS = new Set<string>([ROUTES.login.pattern, ROUTES.forgotPassword.pattern, RESET_PASSWORD_PATH]);

/** Back from an identity provider: the hash carries the provider's answer. */
const isProviderReturn = () => /^#(code|id_token)=/.test(window.location.hash);

export function SignedOutRoutes() {
  usePrefetchWorkspace();
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

// The idle dialogs load with their first use: their primitives (focus trap, scroll lock) are not
// needed to sign in. Once loaded they stay mounted.
const IdleDialogs = lazy(() => import('./shell/idle-dialogs').then((m) => ({ default: m.IdleDialogs })));

/** The idle dialogs, from the first time one opens (the 'Logged out' dialog can open over the sign-in page). */
function LazyIdleDialogs() {
  const dialog = useAtomValue(idleDialogAtom);
  const [wanted, setWanted] = useState(false);
  if (dialog && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <IdleDialogs />
    </Suspense>
  ) : null;
}

/**
 * The signed-in workspace's modules: the shell, the workspace and the confirm host (only the
 * workspace asks questions; it mounts with it) in one module (signed-in.tsx), and the command
 * registry; the build puts them and all they import in one chunk (bin/workspace-chunk.ts).
 */
const loadWorkspace = () => Promise.all([import('./signed-in'), import('../../commands/index')]);

const SignedInWorkspace = preloadable(async () => {
  const [{ SignedInWorkspace: Workspace, preloadInitialViews }, { COMMANDS }] = await loadWorkspace();
  // The pages shown first come with it: a page still loading when the workspace renders would show
  // its fallback, and React holds the page back until that fallback has been up for 300 ms.
  await preloadInitialViews();
  return {
    default: function SignedInWorkspace() {
      return <Workspace commands={COMMANDS} />;
    },
  };
});

/**
 * Signed in (a reload, a second visit, or the tokens just received): the workspace's chunks and
 * the pages it will show first load beside the current user, so the workspace renders as soon as
 * the user is known and its first page does not wait for a chunk of its own.
 */
function preloadSignedIn() {
  if (appStore.get(sessionAtom)) void SignedInWorkspace.preload().catch(() => {});
}

/**
 * Start-up before the first render (main.tsx): with stored credentials the current user is asked
 * for and the workspace starts loading at once, not after the app's first render and effects;
 * tokens received later (a sign-in) start the workspace's loading as they are stored.
 */
export function startLoading() {
  if (appStore.get(sessionAtom)) void restoreSession();
  preloadSignedIn();
  appStore.sub(sessionAtom, preloadSignedIn);
}

/**
 * Fetches the workspace's chunks once the sign-in page has painted and the browser is idle, and
 * then the page a sign-in most likely opens, so signing in does not wait for them; the sign-in
 * page itself never needs them.
 */
function usePrefetchWorkspace() {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const id = idle(
      () =>
        void loadWorkspace()
          .then(([{ prefetchLikelyViews }]) => prefetchLikelyViews())
          .catch(() => {}),
      { timeout: 2000 },
    );
    return () => cancel(id);
  }, []);
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
    <Suspense fallback={<Splash />}>
      <SignedInWorkspace />
    </Suspense>
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
  // The workspace shows once its chunks (and its first pages) are here: rendered before, it would
  // suspend, and React holds back what replaces a Suspense fallback for 300 ms. A failed load
  // renders it anyway, so the lazy import retries and reports.
  const [workspaceLoaded, setWorkspaceLoaded] = useState(SignedInWorkspace.isLoaded);
  useEffect(() => {
    if (!session) return;
    preloadSignedIn();
    if (workspaceLoaded) return;
    const done = () => setWorkspaceLoaded(true);
    SignedInWorkspace.preload().then(done, done);
  }, [session, workspaceLoaded]);

  if (session && user && (workspaceLoaded || AUTH_PATHS.has(location))) return <SignedIn />;
  // While the user (or the workspace) loads, the sign-in page stays up (its button shows
  // progress); elsewhere a splash.
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
          <LazyIdleDialogs />
          <ToastHost />
        </Theme>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
