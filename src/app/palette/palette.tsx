// The command palette (cmdk, Ctrl/⌘+K): one box for records (searched by the server as you
// type) and commands (filtered here). Enter opens in the focused pane, Ctrl/⌘+Enter beside it.
// A prefix (> # @ ! $) narrows the scope and shows as a chip; Backspace on an empty box removes
// it. An empty box shows recent records and commands, then all commands.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Command } from 'cmdk';
import { Dialog, VisuallyHidden } from '@radix-ui/themes';
import { useAtom, useAtomValue, useStore } from 'jotai';
import { disabledReasonOf, isEnabled, isPermitted, runCommand, type Command as Cmd, type CommandContext } from '../keyboard/define';
import { createCommandContext } from '../keyboard/context';
import { formatKeys, formatKeysText } from '../keyboard/keys';
import { MSG } from '../../shared/messages';
import type { SearchHit } from '../../shared/schemas/search';
import { useCan, userIdAtom } from '../state/session';
import { openRoute } from '../workspace/actions';
import { resolveHref } from '../workspace/url';
import { canOpenRoute } from '../workspace/views';
import { paletteOpenAtom, paletteOpenScopeAtom, pushRecent, readRecents, writeRecents, type Recent } from './state';
import { filterCommands } from './match';
import { isScopeKey, SCOPES, type ScopeKey } from './scopes';
import { useRecordSearch } from './use-record-search';
import './palette.css';

export function Palette({ commands }: { commands: readonly Cmd[] }) {
  const [open, setOpen] = useAtom(paletteOpenAtom);
  const handedFocus = useRef(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Content
        className="palette"
        align="start"
        maxWidth="640px"
        aria-describedby={undefined}
        onOpenAutoFocus={() => {
          handedFocus.current = false;
        }}
        onCloseAutoFocus={(e) => {
          // When the palette opened something, focus goes to that tab instead of back.
          if (handedFocus.current) e.preventDefault();
        }}
      >
        <VisuallyHidden>
          <Dialog.Title>Command palette</Dialog.Title>
        </VisuallyHidden>
        {open && (
          <PaletteBody
            commands={commands}
            onDone={(focusMoved) => {
              handedFocus.current = focusMoved;
              setOpen(false);
            }}
          />
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}

type Row = {
  value: string;
  title: string;
  subtitle?: string;
  keys?: string;
  disabledReason?: string;
  onSelect: (beside: boolean) => void;
};

function PaletteBody({ commands: all, onDone }: { commands: readonly Cmd[]; onDone: (focusMoved: boolean) => void }) {
  const store = useStore();
  const userId = useAtomValue(userIdAtom);
  const [text, setText] = useState('');
  const [scope, setScope] = useState<ScopeKey | null>(() => {
    const first = store.get(paletteOpenScopeAtom);
    store.set(paletteOpenScopeAtom, null);
    return first;
  });
  const [picked, setPicked] = useState({ value: '', key: '' });
  const [recents, setRecents] = useState<Recent[]>(() => readRecents(userId));
  const beside = useRef(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // A page that finishes loading behind the palette may autofocus one of its fields; the
  // palette keeps the keyboard while it is open.
  useEffect(() => {
    const onFocusIn = (e: FocusEvent) => {
      const dialog = rootRef.current?.closest('[role="dialog"]');
      if (dialog && e.target instanceof Node && !dialog.contains(e.target)) inputRef.current?.focus();
    };
    document.addEventListener('focusin', onFocusIn, true);
    return () => document.removeEventListener('focusin', onFocusIn, true);
  }, []);
  // One snapshot per opening: what is focused and allowed does not change while the box is open.
  const ctx = useMemo<CommandContext>(() => createCommandContext({}, store), [store]);

  // Records the role cannot open (its page or its read view) are not offered, found or recent.
  const can = useCan();
  const openable = (href: string) => {
    const target = resolveHref(href);
    return !!target && canOpenRoute(target.route, can);
  };

  const serverScope = scope ? SCOPES[scope].server : null;
  const search = useRecordSearch(text, serverScope ?? 'all', scope !== '>');

  const remember = (item: Recent) => {
    const next = pushRecent(recents, item);
    setRecents(next);
    writeRecents(userId, next);
  };

  const openHit = (hit: Pick<SearchHit, 'id' | 'title' | 'subtitle' | 'href'> & { kind: string }, besideNow: boolean) => {
    remember({ type: 'record', id: hit.id, kind: hit.kind, title: hit.title, subtitle: hit.subtitle, href: hit.href });
    const ok = openRoute(hit.href, { beside: besideNow, focus: true }, store);
    onDone(ok);
  };

  const chooseCommand = (cmd: Cmd, besideNow: boolean) => {
    remember({ type: 'command', id: cmd.id });
    onDone(false);
    // Run once the palette has closed and handed focus back, with the state as it is then.
    setTimeout(() => void runCommand(cmd, createCommandContext({ beside: besideNow }, store)), 0);
  };

  const commands = useMemo(() => all.filter((c) => c.palette !== false && isPermitted(c, ctx.can)), [all, ctx]);
  const commandRow = (cmd: Cmd, prefix: string): Row => {
    const enabled = isEnabled(cmd, ctx);
    return {
      value: `${prefix}:${cmd.id}`,
      title: cmd.title,
      keys: cmd.keys,
      disabledReason: enabled ? undefined : disabledReasonOf(cmd, ctx),
      onSelect: (b) => chooseCommand(cmd, b),
    };
  };

  const route = ctx.focusedTab?.route ?? null;
  const q = text.trim();
  const groups: { heading: string; rows: Row[] }[] = [];
  const showRecords = scope !== '>';
  const showCommands = scope === null || scope === '>';

  if (!q) {
    if (scope === null || scope === '>') {
      const recentRows: Row[] = [];
      for (const r of recents) {
        if (r.type === 'record') {
          if (scope === '>' || !openable(r.href)) continue;
          recentRows.push({ value: `recent:${r.href}`, title: r.title, subtitle: r.subtitle, onSelect: (b) => openHit(r, b) });
        } else {
          const cmd = commands.find((c) => c.id === r.id);
          if (cmd) recentRows.push(commandRow(cmd, 'recent'));
        }
      }
      if (recentRows.length) groups.push({ heading: 'Recent', rows: recentRows });
      groups.push({ heading: 'Commands', rows: filterCommands(commands, '', route).map((c) => commandRow(c, 'cmd')) });
    }
  } else {
    if (showRecords) {
      for (const g of search.groups) {
        groups.push({
          heading: g.label,
          rows: g.hits
            .filter((h) => openable(h.href))
            .map((h) => ({ value: `hit:${h.kind}:${h.id}`, title: h.title, subtitle: h.subtitle, onSelect: (b) => openHit(h, b) })),
        });
      }
    }
    if (showCommands) {
      // Mixed with records only clear matches (title or keyword text) are worth a row; in the
      // '>' scope loose (fuzzy) matches count too.
      const rows = filterCommands(commands, q, route, scope === '>' ? 1 : 40).map((c) => commandRow(c, 'cmd'));
      if (rows.length) groups.push({ heading: 'Commands', rows });
    }
  }

  const rows = groups.flatMap((g) => g.rows);
  // While this text's answer is on its way the hits of an earlier text's answer stay on screen
  // (the records found for the first letters), listed but not usable: they do not answer the
  // text, so neither the highlight nor Enter lands on one (cmdk skips disabled rows too, when it
  // moves to the first row as the text changes). A command that matches the text is usable at once.
  const hitsAnswerText = search.status === 'success' && search.query === q;
  const stale = (r: Row) => !hitsAnswerText && isHit(r.value);
  const usable = (r: Row) => !r.disabledReason && !stale(r);
  const firstEnabled = rows.find(usable)?.value ?? '';
  const textKey = `${scope ?? ''}|${q}`;
  // The highlighted row is decided while rendering, so Enter pressed the instant results appear
  // already acts on one: the row the user moved to for this text, else the row already shown
  // highlighted for it, else the first usable row. Answers that arrive for the same text do not
  // move the highlight from under the user's Enter (typing "settings" shows the Provider Settings
  // command at once; the records found a moment later are listed above it, and Enter still opens
  // the settings). A new text highlights its best row again.
  const chosen = picked.key === textKey && rows.some((r) => r.value === picked.value && usable(r));
  const highlighted = chosen ? picked.value : firstEnabled;
  useEffect(() => {
    if (highlighted !== '' && (picked.key !== textKey || picked.value !== highlighted)) setPicked({ value: highlighted, key: textKey });
  }, [highlighted, textKey, picked]);

  const loading = showRecords && !!q && search.status === 'loading';
  // Enter with no usable row while the records for this text are on their way waits for them, then
  // acts on the row highlighted for the text: typing a name in full and pressing Enter opens that
  // record, not one found for its first letters, and the key is not lost. Typing on drops the wait,
  // and so does a failed search.
  const [waiting, setWaiting] = useState<{ key: string; beside: boolean } | null>(null);
  useEffect(() => {
    if (!waiting) return;
    if (waiting.key !== textKey || search.status === 'error') setWaiting(null);
    else if (hitsAnswerText) {
      setWaiting(null);
      rows.find((r) => r.value === highlighted)?.onSelect(waiting.beside);
    }
  }, [waiting, textKey, search.status, hitsAnswerText, rows, highlighted]);
  const nothing = !!q && rows.length === 0 && !loading && (scope === '>' || search.status === 'success' || search.status === 'error');

  let status: ReactNode = null;
  if (scope && scope !== '>' && !q) status = <div className="palette-hint">{MSG.selectTypeToShow}</div>;

  return (
    <Command
      ref={rootRef}
      label="Command palette"
      shouldFilter={false}
      loop
      value={highlighted}
      onValueChange={(v) => setPicked({ value: v, key: textKey })}
      onKeyDownCapture={(e) => {
        if (e.key !== 'Enter') return;
        beside.current = e.ctrlKey || e.metaKey;
        if (highlighted === '' && loading && !e.nativeEvent.isComposing) {
          e.preventDefault(); // cmdk acts on no row now (its handler skips a handled key)
          setWaiting({ key: textKey, beside: beside.current });
          beside.current = false;
        }
      }}
    >
      <div className="palette-input-row">
        {scope && (
          <span className="palette-chip" data-scope={scope}>
            <VisuallyHidden>Scope: </VisuallyHidden>
            {SCOPES[scope].label}
          </span>
        )}
        <Command.Input
          ref={inputRef}
          autoFocus
          value={text}
          placeholder={scope ? `Search ${SCOPES[scope].label.toLowerCase()}…` : 'Search records, or type > for commands'}
          aria-label={scope ? `Search ${SCOPES[scope].label}` : 'Search records and commands'}
          onValueChange={(v) => {
            const first = v.charAt(0);
            if (!scope && v.length > 0 && isScopeKey(first)) {
              setScope(first);
              setText(v.slice(1).trimStart());
            } else setText(v);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Backspace' && text === '' && scope) {
              e.preventDefault();
              setScope(null);
            }
          }}
        />
      </div>
      <Command.List
        className="palette-list"
        onClickCapture={(e) => {
          beside.current = e.ctrlKey || e.metaKey;
        }}
      >
        {status}
        {groups.map((g) =>
          g.rows.length ? (
            <Command.Group key={g.heading} heading={g.heading}>
              {g.rows.map((r) => (
                <Command.Item
                  key={r.value}
                  value={r.value}
                  disabled={!usable(r)}
                  data-stale={stale(r) || undefined}
                  onSelect={() => {
                    const b = beside.current;
                    beside.current = false;
                    r.onSelect(b);
                  }}
                >
                  <span className="palette-row-text">
                    <span className="palette-row-title">{r.title}</span>
                    {r.subtitle && <span className="palette-row-sub">{r.subtitle}</span>}
                    {r.disabledReason && <span className="palette-row-reason">{r.disabledReason}</span>}
                  </span>
                  {r.keys && <KeyHint keys={r.keys} />}
                </Command.Item>
              ))}
            </Command.Group>
          ) : null,
        )}
        {loading && <Command.Loading label="Searching">Searching…</Command.Loading>}
        {search.status === 'error' && showRecords && q && (
          <div className="palette-error" role="alert">
            {search.error}
          </div>
        )}
        {nothing && (
          <div className="palette-empty" role="status">
            {MSG.selectNoResults}
          </div>
        )}
      </Command.List>
      <div className="palette-footer" aria-hidden="true">
        <span>
          <kbd>Enter</kbd> open
        </span>
        <span>
          <kbd>{formatKeys('mod+enter')[0]}</kbd> open beside
        </span>
        <span>
          <kbd>&gt;</kbd> commands · <kbd>#</kbd> devices · <kbd>@</kbd> persons · <kbd>!</kbd> alarm reports · <kbd>$</kbd> customers
        </span>
      </div>
    </Command>
  );
}

const isHit = (value: string) => value.startsWith('hit:');

function KeyHint({ keys }: { keys: string }) {
  return (
    <span className="palette-keys" title={formatKeysText(keys)}>
      {formatKeys(keys).map((k, i) => (
        <kbd key={i}>{k}</kbd>
      ))}
    </span>
  );
}
