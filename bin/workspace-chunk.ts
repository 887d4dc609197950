// The signed-in workspace's code in one chunk. Left to the bundler, the modules the workspace
// loads after sign-in (the shell, the workspace, the command registry, the confirm host and all
// they import statically) are cut into about 40 chunks by who shares what; a start evaluates
// each as a script of its own, a task each, and a cached script of a few hundred bytes gains
// nothing from V8's code cache. Grouped, a start evaluates one script for them.
//
// What goes in: every module reached by static imports from the workspace's roots (below),
// except those the sign-in page's entry already reaches (they stay in the sign-in bundle and its
// budget). A page's own modules, reached only through a route's `import()`, stay in the page's
// chunks, loaded with its first tab.
import { resolve } from 'node:path';

type ModuleInfo = { importedIds: readonly string[] };
type Context = { getModuleInfo: (id: string) => ModuleInfo | null };

/**
 * What `loadWorkspace` in src/app/app.tsx imports (the signed-in part and the command registry),
 * and the list page every list tab renders with its table, filter bar and export progress (nearly
 * every start shows a list), from the repository's root.
 */
export const WORKSPACE_ROOTS = ['src/app/signed-in.tsx', 'commands/index.ts', 'src/app/workspace/list-page.tsx'];
/**
 * Left to the bundler: the signed-in module keeps a small chunk of its own (grouped with the
 * rest, the build's module came out without its exports, and the workspace never rendered).
 */
const OWN_CHUNK = ['src/app/signed-in.tsx'];
export const SIGN_IN_ENTRY = 'src/app/main.tsx';

/** Every module reached from `roots` through static imports. */
function reach(roots: string[], ctx: Context): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    todo.push(...info.importedIds);
  }
  return seen;
}

/** A chunking group's `name` function: 'workspace' for the workspace's modules, null for the rest. */
export function workspaceChunk(root: string) {
  let workspace: Set<string> | undefined;
  return (id: string, ctx: Context): string | null => {
    if (!workspace) {
      const signIn = reach([resolve(root, SIGN_IN_ENTRY)], ctx);
      workspace = reach(
        WORKSPACE_ROOTS.map((f) => resolve(root, f)),
        ctx,
      );
      for (const m of signIn) workspace.delete(m);
      for (const f of OWN_CHUNK) workspace.delete(resolve(root, f));
    }
    return workspace.has(id) ? 'workspace' : null;
  };
}
