// The process's phase (starting while the database is migrated and seeded, ready, draining after
// SIGTERM) and the work that must finish before it exits. GET /ready answers 200 only when the
// phase is 'ready' and the database answers; /health says whether the process is alive.
//
// Anything that runs work in the background and must finish it on shutdown registers with
// onShutdown: the hooks run after the server stops accepting and its open requests are done,
// the last registered first, each awaited, before the outbox is flushed and the database closed.

export type Phase = 'starting' | 'ready' | 'draining';

// An app built in process (tests, benchmarks) is ready once built; main.ts sets 'starting' first
// and 'ready' once the database is migrated and the server listens.
let phase: Phase = 'ready';
type Hook = { name: string; fn: () => void | Promise<void> };
const hooks: Hook[] = [];

export const currentPhase = () => phase;
export function setPhase(p: Phase) {
  phase = p;
}

/** Registers work to finish on shutdown (e.g. the export pool: finish or hand back running jobs). Returns a function that removes it. */
export function onShutdown(name: string, fn: () => void | Promise<void>): () => void {
  const hook = { name, fn };
  hooks.push(hook);
  return () => {
    const i = hooks.indexOf(hook);
    if (i >= 0) hooks.splice(i, 1);
  };
}

/** Runs the registered hooks, last registered first; a failing hook is logged and the others still run. */
export async function runShutdownHooks(log: (e: Record<string, unknown>) => void) {
  for (const hook of hooks.splice(0).reverse()) {
    try {
      await hook.fn();
    } catch (e) {
      log({ msg: 'shutdown hook failed', hook: hook.name, error: String((e as Error)?.stack ?? e) });
    }
  }
}
