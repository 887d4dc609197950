// Radix Themes' stylesheet in two parts, made at build time from the files the package ships
// (tokens/base.css, tokens/colors/*.css, components.css, utilities.css, the split its docs
// describe for importing only some colours):
//
//   virtual:radix-sign-in.css    the base tokens and the colours the sign-in page shows, the rules
//                                of the components it uses, and the utility classes without media
//                                queries: what the entry stylesheet needs.
//   virtual:radix-workspace.css  everything else the workspace uses: the other colours, the rules
//                                of the other components, the responsive utility classes. Loaded
//                                with the workspace after sign-in.
//
// Each part sits in a cascade layer (rt.tokens, rt.components, rt.utilities, declared in this
// order by the first part), so the order of the rules does not depend on the order the two files
// load in: a utility class beats a component's rule as in Radix's own file, and the app's own
// stylesheets (not layered) come after Radix's as before.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import postcss, { type ChildNode, type Container, type Root } from 'postcss';
import type { Plugin } from 'vite';

/** The colours the app names (accent indigo, gray slate, and the `color` props in src/app). */
export const SIGN_IN_COLORS = ['indigo', 'slate', 'gray', 'red'];
export const WORKSPACE_COLORS = ['amber', 'blue', 'green', 'orange'];

/**
 * Radix's component classes the sign-in page, the forgot and reset password pages and the error
 * screen render (Button, IconButton, Callout, Card, TextField, Heading, Text, Link, Spinner and the
 * layout components), plus Skeleton, which Radix orders before the others. Rules of any other
 * component go to the workspace's part.
 */
export const SIGN_IN_COMPONENTS = new Set([
  'rt-BaseButton',
  'rt-Button',
  'rt-IconButton',
  'rt-CalloutRoot',
  'rt-CalloutIcon',
  'rt-BaseCard',
  'rt-Card',
  'rt-Box',
  'rt-Flex',
  'rt-Grid',
  'rt-Container',
  'rt-ContainerInner',
  'rt-Section',
  'rt-Heading',
  'rt-Text',
  'rt-Link',
  'rt-Strong',
  'rt-Em',
  'rt-TextFieldRoot',
  'rt-TextFieldInput',
  'rt-TextFieldSlot',
  'rt-Spinner',
  'rt-SpinnerLeaf',
  'rt-Skeleton',
]);

/**
 * The props given per breakpoint in the app (`columns={{ initial: '1', sm: '3' }}`), by the class
 * Radix names their breakpoint rules with. Radix's stylesheet repeats every utility and every
 * component's sizes and variants once per breakpoint (`.sm\:rt-r-size-2` inside
 * `@media (min-width: 768px)`): more than half of its bytes, and all of them parsed at each start.
 * Only the breakpoint rules of these classes are kept; a prop newly given per breakpoint goes
 * here, or it does not change at the breakpoint (tests/unit/build/radix-css.test.ts finds them in
 * the sources).
 */
export const RESPONSIVE_PROPS: Record<string, string> = { columns: 'rt-r-gtc' };

/** Whether a rule inside a breakpoint's @media names a responsive class the app uses (RESPONSIVE_PROPS). */
export function responsiveRuleKept(selector: string) {
  const classes = [...selector.matchAll(/(?:xs|sm|md|lg|xl)\\:-?(rt-r-[a-z]+)/g)].map((m) => m[1]);
  return classes.every((c) => Object.values(RESPONSIVE_PROPS).includes(c!));
}

/** Drops the breakpoint rules (inside `@media (min-width: …)`) of the responsive classes the app never uses. */
export function dropUnusedResponsive(root: Root): Root {
  root.walkAtRules('media', (media) => {
    if (!/min-width/.test(media.params)) return;
    media.walkRules((rule) => {
      const kept = rule.selectors.filter(responsiveRuleKept);
      if (!kept.length) rule.remove();
      else if (kept.length < rule.selectors.length) rule.selectors = kept;
    });
    if (!media.nodes?.length) media.remove();
  });
  return root;
}

/** A selector belongs to the sign-in part when every component class it names is one of `keep`'s. */
export function selectorKept(selector: string, keep: (cls: string) => boolean) {
  const classes = selector.match(/\.rt-[A-Z][A-Za-z]*/g) ?? [];
  return classes.every((c) => keep(c.slice(1)));
}

/**
 * Splits a stylesheet: `test(node)` says where a rule goes (true: first part). At-rules holding
 * rules (@media, @supports) are split inside and kept around each part's share; others (@keyframes,
 * @font-face) go to the first part.
 */
export function splitSheet(root: Root, keepRule: (selector: string) => boolean, keepAtRule: (name: string, params: string) => boolean = () => true) {
  const first = postcss.root();
  const second = postcss.root();
  const walk = (from: Container, a: Container, b: Container) => {
    from.each((node: ChildNode) => {
      if (node.type === 'rule') {
        const kept = node.selectors.filter(keepRule);
        const other = node.selectors.filter((s) => !keepRule(s));
        if (kept.length) a.append(node.clone({ selectors: kept }));
        if (other.length) b.append(node.clone({ selectors: other }));
      } else if (node.type === 'atrule' && node.nodes && /^(media|supports|layer|container)$/.test(node.name)) {
        const toSecond = !keepAtRule(node.name, node.params);
        const ca = node.clone({ nodes: [] });
        const cb = node.clone({ nodes: [] });
        if (toSecond) walk(node, cb, cb);
        else walk(node, ca, cb);
        if (ca.nodes?.length) a.append(ca);
        if (cb.nodes?.length) b.append(cb);
      } else if (node.type !== 'comment') a.append(node.clone());
    });
  };
  walk(root, first, second);
  return { first: first.toString(), second: second.toString() };
}

const layer = (name: string, css: string) => (css.trim() ? `@layer ${name} {\n${css}\n}\n` : '');

/** The two parts' text from the package folder of @radix-ui/themes. */
export function radixParts(themesDir: string) {
  const read = (p: string) => readFileSync(join(themesDir, p), 'utf8');
  const colors = (names: string[]) => names.map((c) => read(`tokens/colors/${c}.css`)).join('\n');
  const components = splitSheet(dropUnusedResponsive(postcss.parse(read('components.css'))), (s) => selectorKept(s, (c) => SIGN_IN_COMPONENTS.has(c)));
  // Utilities: the plain classes for the sign-in page; the breakpoint variants (inside @media) for the workspace.
  const utilities = splitSheet(
    dropUnusedResponsive(postcss.parse(read('utilities.css'))),
    () => true,
    (name) => name !== 'media',
  );
  const signIn =
    '@layer rt.tokens, rt.components, rt.utilities;\n' +
    layer('rt.tokens', `${read('tokens/base.css')}\n${colors(SIGN_IN_COLORS)}`) +
    layer('rt.components', components.first) +
    layer('rt.utilities', utilities.first);
  const workspace = layer('rt.tokens', colors(WORKSPACE_COLORS)) + layer('rt.components', components.second) + layer('rt.utilities', utilities.second);
  return { signIn, workspace };
}

const IDS = { 'virtual:radix-sign-in.css': 'signIn', 'virtual:radix-workspace.css': 'workspace' } as const;

/** The Vite plugin serving the two parts as `virtual:radix-sign-in.css` and `virtual:radix-workspace.css`. */
export function radixCss(): Plugin {
  let parts: ReturnType<typeof radixParts> | undefined;
  const themesDir = () => dirname(createRequire(import.meta.url).resolve('@radix-ui/themes/package.json'));
  return {
    name: 'radix-css-parts',
    enforce: 'pre',
    resolveId(id) {
      return id in IDS ? `\0${id}` : undefined;
    },
    load(id) {
      const key = id.startsWith('\0') ? (id.slice(1) as keyof typeof IDS) : undefined;
      if (!key || !(key in IDS)) return undefined;
      parts ??= radixParts(themesDir());
      return parts[IDS[key]];
    },
  };
}
