// Local ESLint rule: which part of the code may import which. Imports are resolved against the
// importing file, so '../../app/x' and 'src/app/x' are caught alike.
//   src/shared   imports nothing of src/app, src/server or commands (it is the contract both sides use)
//   src/app, commands  never import src/server;  src/server never imports src/app or commands
//   src/app      does not import commands/ (the command definitions sit above the app), except the
//                app root (src/app/app.tsx), which takes the registry (commands/index.ts) and hands it
//                to the workspace; the keyboard engine the commands use is src/app/keyboard
//   src/app/ui   does not import src/app/workspace, src/app/features, src/app/api or src/app/state:
//                generic widgets get their data through props (types included)
//   src/app/features/<a>  does not import src/app/features/<b>
//   the export definitions (src/server/modules/*/export.ts) and the export task and worker
//   (src/server/exports/task.ts, worker.ts), the CSV import parsers (src/server/modules/*/import-csv.ts)
//   and the import tasks (src/server/exports/import-task.ts, import-write.ts) are imported only inside
//   src/server/exports and by the modules' registrations (src/server/modules/*/exports.ts, and the
//   pool threads' module src/server/modules/export-worker.ts), types excepted: exports, import parsing
//   and import writes run in the worker pool, never on the request loop
//   src/server/exports (the pool) imports no module, types included: the modules register their
//   export and import kinds with it (src/server/exports/registry.ts)
//   src/server/db/migrations/**  imports nothing but kysely and its own folder (its frozen helpers
//                are in db/migrations/lib): a released migration must not change when live code does;
//                and no live code imports a migration, except the list (src/server/db/migrations.ts);
//                live code may import a frozen helper of db/migrations/lib that defines what a
//                migration installed (triggers, counted tables), so both are one definition
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

function area(abs) {
  const rel = relative(ROOT, abs).split(sep).join('/');
  if (rel.startsWith('..')) return null;
  const m = /^src\/app\/features\/([^/]+)/.exec(rel);
  if (m) return { top: 'app', sub: 'features', feature: m[1], rel };
  if (rel.startsWith('src/app/ui/') || rel === 'src/app/ui') return { top: 'app', sub: 'ui', rel };
  if (rel.startsWith('src/app/workspace/') || rel === 'src/app/workspace') return { top: 'app', sub: 'workspace', rel };
  const data = /^src\/app\/(api|state)(\/|$)/.exec(rel);
  if (data) return { top: 'app', sub: data[1], rel };
  if (rel.startsWith('src/app/')) return { top: 'app', rel };
  if (rel.startsWith('src/server/')) return { top: 'server', rel };
  if (rel.startsWith('src/shared/')) return { top: 'shared', rel };
  if (rel.startsWith('commands/') || rel === 'commands') return { top: 'commands', rel };
  return { top: 'other', rel };
}

/** The app root and the one module of commands/ it may import: the registry. */
const APP_ROOT = 'src/app/app.tsx';
const REGISTRY = /^commands(\/index(\.tsx?)?)?$/;

const POOL_ONLY = /^src\/server\/(modules\/[^/]+\/(export|import-csv)|exports\/(task|worker|import-task|import-write))\.(ts|js)$/;
/** The modules' registrations with the pool, which may import the pool-only files. */
const POOL_REGISTRATION = /^src\/server\/modules\/([^/]+\/exports|export-worker)\.(ts|js)$/;
const POOL = 'src/server/exports/';
const MODULES = 'src/server/modules/';

const MIGRATIONS = 'src/server/db/migrations/';
const MIGRATION_LIST = /^src\/server\/db\/migrations\.(ts|js)$/;
const inMigrations = (rel) => rel.startsWith(MIGRATIONS);
/** The frozen helpers, which live code may import (live -> frozen; never frozen -> live). */
const FROZEN_LIB = 'src/server/db/migrations/lib/';

export function violation(fromFile, spec, typeOnly = false) {
  const local = spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('src/') || spec.startsWith('commands/');
  const from = area(resolve(fromFile));
  if (!from) return null;
  if (!local) {
    if (inMigrations(from.rel) && spec !== 'kysely')
      return `a migration imports nothing but kysely (${spec}): it must run the same SQL for as long as it exists; copy what it needs into src/server/db/migrations/lib`;
    return null;
  }
  const target = spec.startsWith('.') ? resolve(dirname(resolve(fromFile)), spec) : resolve(ROOT, spec);
  const to = area(target);
  if (!to) return null;
  if (inMigrations(from.rel) && !inMigrations(to.rel))
    return `a migration must not import ${to.rel}: it would change when that code does; give it a frozen copy in src/server/db/migrations/lib`;
  if (inMigrations(to.rel) && !to.rel.startsWith(FROZEN_LIB) && !inMigrations(from.rel) && !MIGRATION_LIST.test(from.rel) && from.top !== 'other')
    return `live code must not import a migration (${to.rel}): only src/server/db/migrations.ts lists them; what both need goes into src/server/db/migrations/lib`;
  if (from.top === 'shared' && ['app', 'server', 'commands'].includes(to.top))
    return `src/shared is the contract both sides import: it must not import ${to.rel}`;
  if ((from.top === 'app' || from.top === 'commands') && to.top === 'server')
    return `client code must not import server code (${to.rel}); share it through src/shared`;
  if (from.top === 'server' && (to.top === 'app' || to.top === 'commands'))
    return `server code must not import client code (${to.rel}); share it through src/shared`;
  if (from.rel.startsWith(POOL) && to.rel.startsWith(MODULES))
    return `the export pool imports no module (${to.rel}): the module registers its export and import kinds (src/server/exports/registry.ts, from modules/<area>/exports.ts)`;
  if (POOL_ONLY.test(to.rel) && !typeOnly && (from.top === 'server' || from.top === 'app') && !from.rel.startsWith(POOL) && !POOL_REGISTRATION.test(from.rel))
    return `${to.rel} runs only in the export pool's workers: reach it through src/server/exports/pool.ts (exportResponse, parseImport, writeImport)`;
  if (from.top === 'app' && to.top === 'commands' && !(from.rel === APP_ROOT && REGISTRY.test(to.rel)))
    return `src/app must not import commands/ (${to.rel}): only ${APP_ROOT} takes the registry (commands/index.ts) and hands it on; the keyboard engine is src/app/keyboard`;
  if (from.sub === 'ui' && (to.sub === 'workspace' || to.sub === 'features')) return `src/app/ui holds generic widgets: it must not import ${to.rel}`;
  if (from.sub === 'ui' && (to.sub === 'api' || to.sub === 'state'))
    return `src/app/ui holds generic widgets: it must not import ${to.rel}; the page loads the data and passes it in through props`;
  if (from.sub === 'features' && to.sub === 'features' && from.feature !== to.feature)
    return `feature '${from.feature}' must not import feature '${to.feature}' (${to.rel}); move what both need to src/app/ui, src/app/api or src/shared`;
  return null;
}

export const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Import direction between shared, commands, app, server, ui, api, state, workspace and features' },
    schema: [],
  },
  create(context) {
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const msg = violation(context.filename, source.value, node.importKind === 'type' || node.exportKind === 'type');
      if (msg) context.report({ node: source, message: msg });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
    };
  },
};

export default { rules: { boundaries } };
