// What the sign-in page downloads from a built client (dist/client): the entry script and
// stylesheets index.html names, the chunks it preloads, and every chunk those import statically
// (a dynamic `import()` is loaded later, by the workspace after sign-in, and is not counted). Each
// file's size as served: gzip (the .gz the build wrote beside it, or gzip level 9 when there is
// none) and brotli. The bundle budget (tests/bundle-budget.ts) and the first-load benchmark read it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The budget of the sign-in page, compressed with gzip, in bytes (1 kB = 1,000 bytes). */
export const SIGN_IN_BUDGET = { js: 150_000, css: 40_000 };

export type BundleFile = { file: string; bytes: number; gzip: number; brotli: number };
export type SignInBundle = {
  js: BundleFile[];
  css: BundleFile[];
  total: { js: { bytes: number; gzip: number; brotli: number }; css: { bytes: number; gzip: number; brotli: number } };
};

const attr = (tag: string, name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];

/** The files index.html loads at once: module scripts, module preloads and stylesheets (paths from the client root). */
export function pageFiles(html: string) {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attr(tag, 'src');
    if (src && /type\s*=\s*["']module["']/i.test(tag)) js.add(src.replace(/^\//, ''));
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (attr(tag, 'rel') ?? '').toLowerCase();
    const href = attr(tag, 'href');
    if (!href) continue;
    if (rel === 'modulepreload') js.add(href.replace(/^\//, ''));
    if (rel === 'stylesheet') css.add(href.replace(/^\//, ''));
  }
  return { js: [...js], css: [...css] };
}

/**
 * The chunks a built module imports statically: `import … from "./x.js"`, `import "./x.js"` and
 * `export … from "./x.js"`. `import("./x.js")` (a lazy chunk) is not one of them.
 */
export function staticImports(code: string): string[] {
  const out = new Set<string>();
  const re = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.m?js)["']/g;
  for (let m = re.exec(code); m; m = re.exec(code)) out.add(m[1]!);
  return [...out];
}

function sizes(clientDir: string, file: string): BundleFile {
  const path = join(clientDir, file);
  const body = readFileSync(path);
  const gzip = existsSync(`${path}.gz`) ? readFileSync(`${path}.gz`).length : gzipSync(body, { level: 9 }).length;
  const brotli = existsSync(`${path}.br`)
    ? readFileSync(`${path}.br`).length
    : brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  // A file the build left uncompressed (under 1 kB, or one that would not shrink) is sent as it is.
  return { file, bytes: body.length, gzip: Math.min(gzip, body.length), brotli: Math.min(brotli, body.length) };
}

/** The sign-in page's scripts (index.html's and their static imports, transitively) and stylesheets. */
export function signInBundle(clientDir: string): SignInBundle {
  const page = pageFiles(readFileSync(join(clientDir, 'index.html'), 'utf8'));
  const seen = new Set<string>();
  const queue = [...page.js];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(clientDir, file), 'utf8');
    for (const spec of staticImports(code)) {
      if (/^[a-z]+:/i.test(spec)) continue; // another origin: not ours to count
      queue.push(spec.startsWith('/') ? spec.slice(1) : posix.normalize(posix.join(dirname(file), spec)));
    }
  }
  const js = [...seen].sort().map((f) => sizes(clientDir, f));
  const css = page.css.sort().map((f) => sizes(clientDir, f));
  const sum = (files: BundleFile[]) => ({
    bytes: files.reduce((a, f) => a + f.bytes, 0),
    gzip: files.reduce((a, f) => a + f.gzip, 0),
    brotli: files.reduce((a, f) => a + f.brotli, 0),
  });
  return { js, css, total: { js: sum(js), css: sum(css) } };
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

/** One line per file and the totals against the budget. */
export function describeBundle(b: SignInBundle): string {
  const rows = [...b.js, ...b.css].map(
    (f) => `  ${f.file.padEnd(48)} ${kB(f.bytes).padStart(10)} ${kB(f.gzip).padStart(10)} gzip ${kB(f.brotli).padStart(10)} br`,
  );
  return [
    ...rows,
    `  JavaScript: ${b.js.length} files, ${kB(b.total.js.bytes)}, ${kB(b.total.js.gzip)} gzip (budget ${kB(SIGN_IN_BUDGET.js)}), ${kB(b.total.js.brotli)} brotli`,
    `  CSS: ${b.css.length} files, ${kB(b.total.css.bytes)}, ${kB(b.total.css.gzip)} gzip (budget ${kB(SIGN_IN_BUDGET.css)}), ${kB(b.total.css.brotli)} brotli`,
  ].join('\n');
}

/** What is over the budget, one line each; empty when the sign-in page is within it. */
export function budgetFailures(b: SignInBundle, budget = SIGN_IN_BUDGET): string[] {
  const out: string[] = [];
  if (b.total.js.gzip > budget.js)
    out.push(`the sign-in page's JavaScript is ${kB(b.total.js.gzip)} gzip, over the budget of ${kB(budget.js)} (${b.js.length} files)`);
  if (b.total.css.gzip > budget.css) out.push(`the sign-in page's CSS is ${kB(b.total.css.gzip)} gzip, over the budget of ${kB(budget.css)}`);
  return out;
}

/** Text assets of the build (1 kB or more) without the brotli or gzip file the server would send. */
export function missingPrecompressed(clientDir: string): string[] {
  const out: string[] = [];
  const assets = join(clientDir, 'assets');
  for (const name of readdirSync(assets)) {
    if (!/\.(js|css|svg|json|html)$/.test(name)) continue;
    const path = join(assets, name);
    if (statSync(path).size < 1024) continue;
    for (const suffix of ['.br', '.gz']) if (!existsSync(path + suffix)) out.push(`assets/${name}${suffix}`);
  }
  return out;
}
