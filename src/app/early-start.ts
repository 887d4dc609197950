// Signed in already (a reload, a second visit): the workspace's chunk is asked for before the rest
// of the entry is evaluated, so the browser reads it from its cache and parses it (off the main
// thread, tens of milliseconds for a chunk of its size) while the sign-in bundle's modules run,
// not after them. The request for the current user and the data requests of the last start-up's
// first pages leave here too (api/early-requests.ts): their answers arrive while the bundles are
// evaluated, and the app takes them when it makes the same requests (shown only once the user's
// answer says the session is valid). main.tsx imports this module first, and it imports only that
// module, which imports nothing: its imports would be evaluated before it. The signed-in module's
// chunk imports the workspace's (which holds the command registry too, bin/workspace-chunk.ts);
// loadWorkspace in app.tsx asks for the same modules later, and the browser loads a module once.
// The key is the session's (SESSION_KEY in state/session.ts).
import { sendEarlyRequests } from './api/early-requests';

try {
  const session = localStorage.getItem('session');
  if (session) {
    sendEarlyRequests(session, location.pathname + location.search);
    import('./signed-in').catch(() => undefined);
  }
} catch {
  // No storage, or a session not readable: the app starts the workspace's loading itself (startLoading).
}
