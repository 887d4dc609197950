// Radix Themes' stylesheet as the build splits it (bin/radix-css.ts): the breakpoint rules are kept
// only for the props the app gives per breakpoint, and every such prop in the sources is one of them
// (else it would not change at its breakpoint).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { RESPONSIVE_PROPS, radixParts } from '../../../bin/radix-css';

const root = join(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe("Radix's breakpoint rules", () => {
  it('every prop the app gives per breakpoint keeps its breakpoint rules', () => {
    const found = new Map<string, string>();
    for (const file of [...sources(join(root, 'src/app')), ...sources(join(root, 'commands'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(\w+)=\{\{\s*(?:initial|xs|sm|md|lg|xl)\s*:/g)) found.set(m[1]!, file.slice(root.length + 1));
    }
    expect(found.size).toBeGreaterThan(0);
    for (const [prop, file] of found) expect(RESPONSIVE_PROPS, `${prop} in ${file}: add it to RESPONSIVE_PROPS (bin/radix-css.ts)`).toHaveProperty(prop);
  });

  it('the workspace part keeps the grid columns per breakpoint and leaves out the sizes per breakpoint', () => {
    const themes = dirname(createRequire(import.meta.url).resolve('@radix-ui/themes/package.json'));
    const { signIn, workspace } = radixParts(themes);
    expect(workspace).toContain('.sm\\:rt-r-gtc-3');
    expect(workspace).toContain('@media (min-width: 768px)');
    for (const part of [signIn, workspace]) {
      expect(part).not.toContain('\\:rt-r-size-');
      expect(part).not.toContain('\\:rt-r-p-');
    }
    // the plain utilities and sizes stay
    expect(signIn).toContain('.rt-r-p-3');
    expect(signIn).toContain('.rt-r-size-2');
  });
});
