// The bundle budget's reading of a build: the sign-in page is index.html's module script, its
// preloads and stylesheets and every chunk they import statically; a chunk only imported with
// import() (the workspace) is not part of it. Over the budget is reported, within it is not.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { budgetFailures, missingPrecompressed, pageFiles, signInBundle, staticImports } from '../../helpers/sign-in-bundle';

const dir = mkdtempSync(join(tmpdir(), 'bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text that gzip cannot shrink much: n bytes of pseudo-random letters. */
const noise = (n: number, seed: number) => {
  let x = seed;
  return Array.from({ length: n }, () => String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) % 2147483648) % 26))).join('');
};

function build(files: Record<string, string>) {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

describe('reading a build', () => {
  it('finds module scripts, preloads and stylesheets in index.html', () => {
    const html = `<script type="module" crossorigin src="/assets/index-A.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react-B.js"><link rel="stylesheet" crossorigin href="/assets/index-C.css">
      <link rel="icon" href="/favicon.svg">`;
    expect(pageFiles(html)).toEqual({ js: ['assets/index-A.js', 'assets/react-B.js'], css: ['assets/index-C.css'] });
  });

  it('static imports and re-exports count, import() does not', () => {
    const code = `import{a as b}from"./react-B.js";import"./side-D.js";export{x}from"./re-E.js";const w=()=>import("./workspace-F.js");`;
    expect(staticImports(code).sort()).toEqual(['./re-E.js', './react-B.js', './side-D.js']);
  });

  it('the sign-in bundle follows static imports transitively and leaves the lazy workspace out', () => {
    build({
      'index.html': `<script type="module" src="/assets/index-A.js"></script><link rel="stylesheet" href="/assets/index-C.css">`,
      'assets/index-A.js': `import{r}from"./react-B.js";const w=()=>import("./workspace-F.js");${noise(2000, 1)}`,
      'assets/react-B.js': `import"./scheduler-G.js";${noise(3000, 2)}`,
      'assets/scheduler-G.js': noise(1000, 3),
      'assets/workspace-F.js': `import"./react-B.js";${noise(50_000, 4)}`,
      'assets/index-C.css': `.a{color:red}${noise(500, 5)}`,
    });
    const b = signInBundle(dir);
    expect(b.js.map((f) => f.file)).toEqual(['assets/index-A.js', 'assets/react-B.js', 'assets/scheduler-G.js']);
    expect(b.css.map((f) => f.file)).toEqual(['assets/index-C.css']);
    expect(b.total.js.bytes).toBe(b.js.reduce((a, f) => a + f.bytes, 0));
    expect(b.total.js.gzip).toBeGreaterThan(3000);
    expect(budgetFailures(b)).toEqual([]);
    expect(budgetFailures(b, { js: 1000, css: 40_000 })).toEqual([expect.stringMatching(/JavaScript is .* gzip, over the budget of 1\.0 kB/)]);
    expect(budgetFailures(b, { js: 150_000, css: 10 })).toEqual([expect.stringMatching(/CSS is .* over the budget/)]);
  });

  it('the .gz the build wrote is the size counted; a missing .br or .gz is named', () => {
    build({ 'index.html': `<script type="module" src="/assets/only-H.js"></script>`, 'assets/only-H.js': noise(4000, 6) });
    const gz = gzipSync(noise(4000, 6), { level: 9 });
    writeFileSync(join(dir, 'assets/only-H.js.gz'), gz);
    expect(signInBundle(dir).js[0]!.gzip).toBe(gz.length);
    expect(missingPrecompressed(dir)).toContain('assets/only-H.js.br');
    expect(missingPrecompressed(dir)).not.toContain('assets/only-H.js.gz');
  });
});
