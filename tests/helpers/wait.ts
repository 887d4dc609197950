// How long a test waits for something that happens in the background (a worker thread stopping, a
// job's progress, a render after a fetch) before it fails: `vi.waitFor(check, WAIT)`. Vitest's
// default second is shorter than a busy 2-core CI machine sometimes takes to get there; a thing that
// never happens still fails. vite.config.ts makes it `expect.poll`'s default too.
export const WAIT = { timeout: 10_000, interval: 50 } as const;
