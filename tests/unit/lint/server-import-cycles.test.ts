// No import cycle inside src/server: every static import and re-export of src/server/**/*.ts (type-only
// ones included) is read with the TypeScript parser, and each strongly connected group of files is a cycle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const serverDir = join(root, 'src/server');

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative specifiers of the file's static imports and re-exports (dynamic `import()` is left out). */
export function staticImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      specifiers.push(statement.moduleReference.expression.text);
    }
  }
  return specifiers.filter((s) => s.startsWith('.'));
}

function resolveImport(from: string, specifier: string, files: Set<string>): string | null {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, join(base, 'index.ts')]) if (files.has(candidate)) return candidate;
  return null;
}

/** Strongly connected groups of more than one file (or a file importing itself), Tarjan's algorithm. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function serverGraph(): Map<string, string[]> {
  const files = listFiles(serverDir);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = staticImports(file, readFileSync(file, 'utf8'))
      .map((s) => resolveImport(file, s, known))
      .filter((t): t is string => t !== null);
    graph.set(
      relative(root, file),
      [...new Set(targets)].map((t) => relative(root, t)),
    );
  }
  return graph;
}

/** The same graph between the modules' areas (src/server/modules/<area>): an area that reaches back to itself through others. */
function areaGraph(files: Map<string, string[]>): Map<string, string[]> {
  const areaOf = (file: string) => /^src\/server\/modules\/([^/]+)\//.exec(file)?.[1];
  const graph = new Map<string, string[]>();
  for (const [file, targets] of files) {
    const from = areaOf(file);
    if (!from) continue;
    const to = targets.map(areaOf).filter((a): a is string => a !== undefined && a !== from);
    graph.set(from, [...new Set([...(graph.get(from) ?? []), ...to])]);
  }
  return graph;
}

const describeCycles = (groups: string[][], what = 'files') => groups.map((group) => `cycle of ${group.length} ${what}:\n  ${group.join('\n  ')}`).join('\n');

describe('import cycles in src/server', () => {
  it('finds a cycle and a type-only import, and leaves dynamic imports out', () => {
    expect(staticImports('a.ts', "import type { A } from './a.js';\nexport * from '../b';\nconst c = await import('./c.js');\nimport x from 'hono';")).toEqual([
      './a.js',
      '../b',
    ]);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a', 'd']],
      ['e', []],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('has none', () => {
    expect(describeCycles(cycles(serverGraph()))).toBe('');
  });

  it('has no ring between module areas', () => {
    expect(describeCycles(cycles(areaGraph(serverGraph())), 'areas')).toBe('');
  });
});
