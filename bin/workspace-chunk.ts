// The signed-in workspace's code in one chunk. Left to the bundler, the modules the workspace
// loads after sign-in (the shell, the workspace, the command registry, the confirm host and all
// they import statically) are cut into about 40 chunks by who shares what; a start evaluates
// each as a script of its own, a task each, and a cached script of a few hundred bytes gains
// nothing from V8's code cache. Grouped, a start evaluates one script for them.
//
// What goes in: every module reached by static imports from the workspace's roots (below),
// except those the sign-in page's bundle holds. That set is the bundler's `$initial` tag (what the
// entry loads after tree-shaking), and a first group puts it in one chunk of its own, the entry's:
// the sign-in page loads 2 scripts instead of 8 to 13 small ones cut by who shares what. The
// static imports from the entry would say more than `$initial`: through a package's index (Radix
// Themes, React Query) they reach every component, and the components the sign-in page never uses
// (Table, Tabs) then stayed outside both groups, in a chunk that the workspace's chunk and the
// signed-in module's chunk imported from each other; in that cycle a module that reads an import
// as it loads (`{ ...ThemeTable, Root }` in src/app/ui/table.tsx) read it before it was set. A
// page's own modules, reached only through a route's `import()`, stay in the page's chunks,
// loaded with its first tab.
import { resolve } from 'node:path';

type ModuleInfo = { importedIds: readonly string[] };
type Context = { getModuleInfo: (id: string) => ModuleInfo | null };

/**
 * What `loadWorkspace` in src/app/app.tsx imports (the signed-in part and the command registry),
 * the list page every list tab renders with its table, filter bar and export progress (nearly
 * every start shows a list), and the first landing area's page, the asset list (where most starts
 * land: its chunk would be asked for only once this one has been evaluated, and the page's data
 * only once it has arrived), from the repository's root.
 */
export const WORKSPACE_ROOTS = ['src/app/signed-in.tsx', 'commands/index.ts', 'src/app/workspace/list-page.tsx', 'src/app/features/assets/asset-list-page.tsx'];
/**
 * Left to the bundler: the signed-in module keeps a small chunk of its own (grouped with the
 * rest, the build's module came out without its exports, and the workspace never rendered).
 */
const OWN_CHUNK = ['src/app/signed-in.tsx'];

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

/**
 * The two chunking groups, in this order: the first takes the sign-in page's bundle (`$initial`)
 * and records its modules; the second names the workspace's modules 'workspace'.
 */
export function workspaceChunkGroups(root: string) {
  const initial = new Set<string>();
  let workspace: Set<string> | undefined;
  return [
    {
      name: (id: string) => {
        initial.add(id);
        return 'sign-in';
      },
      tags: ['$initial' as const],
    },
    {
      name: (id: string, ctx: Context): string | null => {
        if (!workspace) {
          if (initial.size === 0) throw new Error('workspace-chunk: the $initial group did not run first');
          workspace = reach(
            WORKSPACE_ROOTS.map((f) => resolve(root, f)),
            ctx,
          );
          for (const m of initial) workspace.delete(m);
          for (const f of OWN_CHUNK) workspace.delete(resolve(root, f));
        }
        return workspace.has(id) ? 'workspace' : null;
      },
      // A module's imports go where they belong by themselves: by default the group would take
      // the modules the sign-in page shares with the workspace (React, Radix's base) as well.
      includeDependenciesRecursively: false,
    },
  ];
}
