// Commands are data: one object per command, listed explicitly in commands/index.ts. The palette,
// the key listener, the `?` cheat sheet and docs/shortcuts.md are all generated from that list.
// A command receives what it needs in `ctx` (VS Code's accessor idea) instead of importing app
// state, so the definitions in commands/ load anywhere (tests, the doc generator) without a DOM.
import type { Permission } from '../../shared/permissions';
import type { RouteId } from '../paths';
import type { Tab } from '../workspace/model';
import type { OpenRouteOptions } from '../workspace/actions';
import type { appStore } from '../state/store';
import { canonicalForms, parseKeys, reservedReason } from './keys';

/** Cheat-sheet sections, in display order. */
export const COMMAND_GROUPS = ['General', 'Navigation', 'Lists', 'Users', 'Devices', 'Customers', 'Alarm reports', 'Tabs', 'Panes', 'Session'] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];

/**
 * The list (DataTable) that keys go to: the one holding keyboard focus, else the list of the
 * focused tab. `onGrid`: the list's grid element itself has the focus (Enter opens only then, so
 * Enter on a header button still sorts).
 */
export type ListContext = {
  onGrid: boolean;
  move: (delta: number) => void;
  canOpen: () => boolean;
  open: (beside: boolean) => void;
  selectable: () => boolean;
  toggleSelect: () => void;
  hasFilter: () => boolean;
  focusFilter: () => void;
};

/** What a command may use. Built by context.ts for the app; tests pass fakes. */
export type CommandContext = {
  /** The jotai store (commands read atoms directly, outside React). */
  store: typeof appStore;
  /** The tab shown in the focused pane, if any. */
  focusedTab: Tab | null;
  /** Tabs in the focused pane. */
  tabCount: number;
  /** Panes in the workspace. */
  paneCount: number;
  /** Recently closed tabs that can be reopened. */
  closedCount: number;
  /** Set when the command was chosen with Ctrl/⌘+Enter in the palette: open things in the other pane. */
  beside: boolean;
  openRoute: (href: string, opts?: OpenRouteOptions) => boolean;
  can: (access: string) => boolean;
  workspace: {
    closeTab: (tabId?: string) => Promise<boolean>;
    reopenClosedTab: () => void;
    cycleTab: (delta: number) => void;
    goToTab: (n: number) => void;
    togglePinTab: (tabId?: string) => void;
    splitPane: (orientation: 'horizontal' | 'vertical') => void;
    focusNextPane: () => void;
    moveTabToOtherPane: (tabId?: string) => void;
    resizeFocusedPane: (delta: number) => void;
  };
  ui: { togglePalette: () => void; openCheatSheet: () => void };
  logout: () => void;
  /** The list keys go to, if any (list.* commands). */
  list?: ListContext | null;
  /** Shows a command's failure to the user (the app: an error toast). */
  reportError?: (err: unknown, cmd: Command) => void;
};

export type Command = {
  /** Namespaced id, e.g. 'tab.close', 'nav.users'. */
  id: string;
  title: string;
  group: CommandGroup;
  /** Binding in the notation of keys.ts ('mod+k', 'g u', 'alt+w'). */
  keys?: string;
  /** Whether it applies right now; when false the palette shows it disabled with `disabledReason`. */
  when?: (ctx: CommandContext) => boolean;
  disabledReason?: string | ((ctx: CommandContext) => string);
  /** Needed to see the command at all ('signed-in' or a permission name). */
  permission?: Permission | 'signed-in';
  /** A feature (provider settings) the command needs: while it is off the command is not offered at all. */
  feature?: string;
  keywords?: string[];
  /** Listed in the palette (default true). */
  palette?: boolean;
  /** Contextual: shown first in the palette while the focused tab shows one of these routes. */
  routes?: RouteId[];
  /**
   * 'list': the key acts inside a focused list only (its `when` says so), so keys the page keeps
   * for controls (Enter) may be bound; the registry check allows them for such commands only.
   */
  scope?: 'list';
  /** Holding the key down runs the command again (auto-repeat); off by default (Alt+W must not close a row of tabs). */
  repeat?: boolean;
  run: (ctx: CommandContext) => unknown;
};

const ID = /^[a-z][a-z0-9]*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/;

/** Checks one command on its own (id shape, parsable and allowed keys). Throws on a mistake. */
export function defineCommand(cmd: Command): Command {
  if (!ID.test(cmd.id)) throw new Error(`command id "${cmd.id}" must be namespaced, e.g. "tab.close"`);
  if (!cmd.title.trim()) throw new Error(`command ${cmd.id} has no title`);
  if (cmd.keys) {
    parseKeys(cmd.keys);
    const reserved = reservedReason(cmd.keys, cmd.scope === 'list');
    if (reserved) throw new Error(`command ${cmd.id}: key "${cmd.keys}" is reserved by the browser: ${reserved}`);
  }
  return Object.freeze({ palette: true, ...cmd });
}

/**
 * Problems of a whole registry: duplicate ids, two commands on the same key or sequence (also a
 * key that starts another's sequence, which would swallow it), reserved or unparsable keys.
 */
export function registryProblems(commands: readonly Command[]): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  for (const c of commands) ids.set(c.id, (ids.get(c.id) ?? 0) + 1);
  for (const [id, n] of ids) if (n > 1) problems.push(`duplicate command id "${id}" (${n} times)`);

  const byForm = new Map<string, string>();
  const singles = new Map<string, string>(); // one-step forms
  const firstSteps: { form: string; id: string; keys: string }[] = [];
  for (const c of commands) {
    if (!c.keys) continue;
    let forms: string[];
    try {
      forms = canonicalForms(c.keys);
    } catch (err) {
      problems.push(`command ${c.id}: ${(err as Error).message}`);
      continue;
    }
    const reserved = reservedReason(c.keys, c.scope === 'list');
    if (reserved) problems.push(`command ${c.id}: key "${c.keys}" is reserved by the browser: ${reserved}`);
    for (const f of forms) {
      const other = byForm.get(f);
      if (other && other !== c.id) problems.push(`key clash on "${f}": ${other} and ${c.id}`);
      else byForm.set(f, c.id);
      const space = f.indexOf(' ');
      if (space < 0) singles.set(f, c.id);
      else firstSteps.push({ form: f.slice(0, space), id: c.id, keys: c.keys });
    }
  }
  for (const s of firstSteps) {
    const single = singles.get(s.form);
    if (single && single !== s.id) problems.push(`key clash: ${single} takes "${s.form}", the first key of ${s.id} ("${s.keys}")`);
  }
  return [...new Set(problems)];
}

export function assertValidRegistry(commands: readonly Command[]): void {
  const problems = registryProblems(commands);
  if (problems.length) throw new Error(`command registry:\n- ${problems.join('\n- ')}`);
}

/**
 * How commands learn whether a feature is on. The app installs the feature list's answer
 * (context.ts); without one (tests, the doc generator) every feature counts as on.
 */
let featureLookup: (name: string) => boolean = () => true;
export function setFeatureLookup(lookup: (name: string) => boolean): void {
  featureLookup = lookup;
}

/** The user may see the command (permission and feature), and whether it applies now (when). */
export function isPermitted(cmd: Command, can: (access: string) => boolean): boolean {
  return (!cmd.permission || can(cmd.permission)) && (!cmd.feature || featureLookup(cmd.feature));
}
export function isEnabled(cmd: Command, ctx: CommandContext): boolean {
  return cmd.when ? cmd.when(ctx) : true;
}
export function disabledReasonOf(cmd: Command, ctx: CommandContext): string {
  const r = cmd.disabledReason;
  return (typeof r === 'function' ? r(ctx) : r) ?? 'Not available here.';
}

/** Where a failing command is reported when the context has no reporter (tests, scripts). */
export function defaultReportError(err: unknown, cmd: Command) {
  console.error(`command ${cmd.id} failed`, err);
}

/**
 * Runs a command if permitted and applicable. Resolves whether it ran to the end. Never rejects:
 * a command that throws or whose promise rejects is reported (ctx.reportError: an error toast in
 * the app), so a failure is never dropped silently by a `void runCommand(...)` caller.
 */
export async function runCommand(cmd: Command, ctx: CommandContext): Promise<boolean> {
  try {
    if (!isPermitted(cmd, ctx.can) || !isEnabled(cmd, ctx)) return false;
    await cmd.run(ctx);
    return true;
  } catch (err) {
    try {
      (ctx.reportError ?? defaultReportError)(err, cmd);
    } catch (reportErr) {
      defaultReportError(reportErr, cmd);
    }
    return false;
  }
}
