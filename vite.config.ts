import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { radixCss } from './bin/radix-css.js';
import { workspaceChunkGroups } from './bin/workspace-chunk.js';
import { WAIT } from './tests/helpers/wait.js';

const apiPrefixes = [
  '/connect',
  '/api',
  '/ps-admin',
  '/persons/get',
  '/customers/get-global-settings',
  '/features',
  '/alarm-report/',
  '/devices/',
  '/device-configuration',
  '/health',
  // the device hub (#11): SignalR negotiate and its WebSocket
  '/hub/',
];

// Tests that start compiled server nodes on a PostgreSQL and a Redis of their own and stop and
// restart those (tests/helpers/cluster.ts): a project of their own, one file at a time, after the
// server is compiled once (its globalSetup).
const clusterTests = ['tests/integration/two-nodes.test.ts', 'tests/integration/restarts.test.ts'];

export default defineConfig({
  plugins: [
    react(),
    // Radix Themes' stylesheet in two parts: what the sign-in page uses, and the rest, loaded with
    // the workspace (bin/radix-css.ts).
    radixCss(),
    // Brotli and gzip files beside each text asset (name.br, name.gz), at the highest levels: made
    // once per build, served by src/server/http/static-client.ts to browsers that accept them.
    // Files under 1 KB, and any that would not shrink, are left as they are.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|mjs|css|html|svg|json|txt|wasm)$/, threshold: 1024, logLevel: 'silent' }),
  ],
  // No source maps in the build: the server would publish them next to the bundles.
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // The sign-in page's bundle in one chunk and the signed-in workspace in another, not 8 and
      // ~40 (bin/workspace-chunk.ts); each page's own modules stay as the bundler splits them.
      output: { codeSplitting: { groups: workspaceChunkGroups(import.meta.dirname) } },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: 'http://127.0.0.1:8080', ws: true }])),
  },
  test: {
    // expect.poll's default wait (Vitest's is one second): the one that vi.waitFor takes as an
    // argument (tests/helpers/wait.ts).
    expect: { poll: WAIT },
    projects: [
      // Unit tests in two projects by what they need: `.tsx` files render React into jsdom; `.ts`
      // files (rules, schemas, server helpers, the keyboard engine's logic) run in plain Node. Building
      // a jsdom costs about a second per file, which the `.ts` files paid for nothing. A `.ts` test
      // that needs a DOM says so on its first line: `// @vitest-environment jsdom`.
      // `npx vitest run --project 'unit*'` runs both.
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // Vitest's 5 s default fails a test that is only slow because the machine is busy: CI runs
          // this step niced beside the end-to-end tests, where on a slow 2-core machine a palette
          // test that takes 2 s alone took 16 s. A test that hangs still fails.
          testTimeout: 30_000,
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/helpers/setup-dom.ts'],
          maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
          // Each worker loads the modules once for all the files it runs (loading them again for each
          // file was most of the step's time). These files test rules, schemas and server helpers:
          // none keeps state between files, and a file that needs a fresh module graph or a DOM
          // goes in a project that isolates it (a \`.ts\` file that says \`@vitest-environment jsdom\`
          // still gets a jsdom of its own).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-dom',
          environment: 'jsdom',
          testTimeout: 30_000,
          include: ['tests/unit/**/*.test.tsx'],
          setupFiles: ['tests/helpers/setup-dom.ts'],
          // Vitest's default is one worker less than the cores: one worker on a 2-core machine, with
          // a core idle. Two keep both busy (measured in docs/development.md).
          maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
          // Each file in a VM context of its own, in long-lived worker threads: the file's app modules,
          // its jsdom and its state are its own, as with a process a file, but jsdom and the
          // libraries are loaded once per worker instead of once per file (loading jsdom took 1–3 s
          // a file, more than most files' tests).
          pool: 'vmThreads',
          // The UI libraries pre-bundled once (Vite's dependency optimizer, cached in
          // node_modules/.vite): each file's VM context imports one module a library instead of its
          // hundreds. Alone, on a fresh cache: 54 → 47 s, 94 → 82 CPU seconds. ofetch stays out
          // (its bundle would take its Node entry, which jsdom's context cannot run).
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: [
                  '@radix-ui/themes',
                  '@tanstack/react-query',
                  '@tanstack/react-virtual',
                  '@testing-library/react',
                  '@testing-library/user-event',
                  'cmdk',
                  'date-fns',
                  'date-fns/format',
                  'date-fns/isValid',
                  'date-fns/parseISO',
                  'jotai',
                  'jotai-tanstack-query',
                  'libphonenumber-js',
                  'react',
                  'react-dom',
                  'react-dom/client',
                  'react/jsx-runtime',
                  'react/jsx-dev-runtime',
                  'react-hook-form',
                  'react-hotkeys-hook',
                  'react-resizable-panels',
                  'valibot',
                  'wouter',
                ],
              },
            },
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...clusterTests],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Most integration time is waiting (child servers, PostgreSQL, Redis, timers), not CPU:
          // three files at a time on a 2-core machine (measured in docs/development.md).
          maxWorkers: Number(process.env.INTEGRATION_WORKERS ?? 3),
          // Each worker loads the server's modules once for all the files it runs, instead of once per
          // file (which was half of the run's CPU time). Every file opens its own database and app
          // and closes them, sets no process-wide state (environment variables, fake timers,
          // module mocks: none here) and defines its tests when it is loaded, so a file depends
          // on no other. A file that needs a fresh module graph would need a project of its own.
          isolate: false,
          globalSetup: ['tests/helpers/global-build.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'cluster',
          environment: 'node',
          include: clusterTests,
          globalSetup: ['tests/helpers/global-build.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
