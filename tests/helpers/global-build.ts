// The integration project's global set-up: the compiled server (dist/server) made current once,
// before any test starts it as `npm start` does (tests/integration/compiled-server.test.ts, the
// build-start and several-node tests). Tests never compile it themselves: two compilers writing
// one folder while a server runs from it would break both.
//
// On PostgreSQL (TEST_DB=pg) it also makes the run's template databases once, which every test
// database is copied from (tests/helpers/db.ts), and drops them at the end.
import type { TestProject } from 'vitest/node';
import { ensureServerBuilt } from '../../bin/server-build.mjs';
import { createPgTemplates } from './db.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplates: { reference: string; bare: string } | undefined;
  }
}

export default async function setup(project: TestProject) {
  ensureServerBuilt((line) => console.log(`[global set-up] ${line}`));
  if (process.env.TEST_DB !== 'pg') {
    project.provide('pgTemplates', undefined);
    return;
  }
  const t0 = Date.now();
  const templates = await createPgTemplates();
  console.log(`[global set-up] PostgreSQL template databases migrated in ${Date.now() - t0} ms`);
  project.provide('pgTemplates', templates.names);
  return () => templates.drop();
}
