// @vitest-environment node
// Links between the documents, and decisions cited from code: every relative link in README.md and
// docs/**/*.md names a file that exists and, when it has one, a heading of that file (GitHub's
// anchor rule); every decision a code comment cites by title (`decision "<title>",
// docs/decisions/<area>.md`) is a heading of that file; nothing cites a decision by number.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');

function walk(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? walk(path, keep) : keep(path) ? [path] : [];
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const withoutCode = (text: string) => text.replace(/^(```|~~~)[\s\S]*?^\1/gm, (block) => block.replace(/[^\n]/g, ''));

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const docs = [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), (f) => f.endsWith('.md'))];

/** Every local link of a Markdown file: [text](target), outside fenced and inline code. */
function linksOf(file: string): { target: string; line: number }[] {
  const text = withoutCode(readFileSync(file, 'utf8')).replace(/`[^`]*`/g, (c) => c.replace(/[^\n]/g, ' '));
  return [...text.matchAll(/\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)/g)]
    .map((m) => ({ target: m[1] ?? '', line: text.slice(0, m.index).split('\n').length }))
    .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('documentation links', () => {
  it('finds the documents', () => {
    expect(docs.length).toBeGreaterThan(10);
    expect(docs.some((f) => f.includes(join('docs', 'decisions', 'README.md')))).toBe(true);
  });

  it('resolves every relative link to a file and heading', () => {
    const broken: string[] = [];
    for (const file of docs) {
      for (const { target, line } of linksOf(file)) {
        const [path = '', anchor] = target.split('#');
        const to = path === '' ? file : resolve(dirname(file), decodeURI(path));
        const where = `${relative(ROOT, file)}:${line} → ${target}`;
        if (!existsSync(to)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && to.endsWith('.md') && !anchorsOf(to).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('computes anchors as GitHub does', () => {
    expect(anchorOf("A device's messages are read through the device index only")).toBe('a-devices-messages-are-read-through-the-device-index-only');
    expect(anchorOf('The audit export reads keyset pages on (at, id)')).toBe('the-audit-export-reads-keyset-pages-on-at-id');
    expect(anchorOf("One edge serves 'within 10 s' and 'Under 10 s'")).toBe('one-edge-serves-within-10-s-and-under-10-s');
    expect(anchorOf('Tokens are verified with node:crypto')).toBe('tokens-are-verified-with-nodecrypto');
  });
});

const code = ['src', 'commands', 'tests', 'bin', 'eslint'].flatMap((d) => walk(join(ROOT, d), (f) => /\.(ts|tsx|js|mjs|cjs|css)$/.test(f)));

describe('decisions cited from code', () => {
  it('names each decision by a title its file holds', () => {
    const wrong: string[] = [];
    let cited = 0;
    for (const file of code) {
      // Comment lines joined, so a title wrapped over two comment lines reads as one.
      const text = readFileSync(file, 'utf8').replace(/\n\s*(?:\/\/|\*(?!\/)|\/\*)?\s*/g, ' ');
      for (const m of text.matchAll(/\bdecisions? ("[^"]+"(?:(?:,| and| or)\s*"[^"]+")*)[,;]?\s*(docs\/decisions\/[\w-]+\.md)/g)) {
        const target = join(ROOT, m[2] ?? '');
        const anchors = existsSync(target) ? anchorsOf(target) : new Set<string>();
        for (const t of (m[1] ?? '').matchAll(/"([^"]+)"/g)) {
          cited++;
          if (!anchors.has(anchorOf(t[1] ?? ''))) wrong.push(`${relative(ROOT, file)}: "${t[1]}" is not a heading of ${m[2]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(cited).toBeGreaterThan(20);
  });

  it('cites no decision by number', () => {
    const byNumber = [...code, ...docs]
      .filter((f) => !f.endsWith(join('tests', 'unit', 'docs', 'links.test.ts')))
      .flatMap((f) => (/\b[Dd]ecisions? \d+|docs\/decisions\.md/.test(readFileSync(f, 'utf8')) ? [relative(ROOT, f)] : []));
    expect(byNumber).toEqual([]);
  });
});
