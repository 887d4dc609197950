// Signed in already (a reload, a second visit): the workspace's chunk is asked for before the rest
// of the entry is evaluated, so the browser reads it from its cache and parses it (off the main
// thread, tens of milliseconds for a chunk of its size) while the sign-in bundle's modules run,
// not after them. main.tsx imports this module first, and it imports nothing itself: its imports
// would be evaluated before it. The signed-in module's chunk imports the workspace's (which holds
// the command registry too, bin/workspace-chunk.ts); loadWorkspace in app.tsx asks for the same
// modules later, and the browser loads a module once. The key is the session's (SESSION_KEY in
// state/session.ts).
try {
  if (localStorage.getItem('session')) import('./signed-in').catch(() => undefined);
} catch {
  // No storage: the app starts the workspace's loading itself (startLoading).
}
