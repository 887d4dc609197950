// The signed-in workspace's code in one chunk. Left to the bundler, the modules the workspace
// loads after sign-in (the shell, the workspace, the command registry, the confirm host and all
// they import statically) are cut into about 40 chunks by who shares what; a start evaluates
// each as a script of its own, a task each, and a cached script of a few hundred bytes gains
// nothing from V8's code cache. Grouped, a start evaluates one script for them.
//
// What goes in: every module reached by static imports from the workspace's roots (the modules
// `loadWorkspace` in src/app/app.tsx imports: src/app/signed-in.tsx and the command registry), except those the sign-in page's entry already
// reaches (they stay in the sign-in bundle and its budget). A page's module, reached only
// through a route's `import()`, stays in the page's own chunks, loaded with its first tab.
import { resolve } from 'node:path';

type ModuleInfo = { importedIds: readonly string[] };
type Context = { getModuleInfo: (id: string) => ModuleInfo | null };

/** The modules `loadWorkspace` (src/app/app.tsx) imports, from the repository's root. */
export const WORKSPACE_ROOTS = [
  'src/app/workspace-styles.ts',
  'src/app/shell/shell.tsx',
  'src/app/workspace/workspace.tsx',
  'commands/index.ts',
  'src/app/ui/confirm-dialog.tsx',
];
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
    }
    return workspace.has(id) ? 'workspace' : null;
  };
}
