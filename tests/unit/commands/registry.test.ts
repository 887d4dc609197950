import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../commands/index';
import { assertValidRegistry, defineCommand, registryProblems, type Command } from '../../../src/app/keyboard/define';
import { canonicalForms, formatKeys, formatKeysText, parseKeys, RESERVED_KEYS, reservedReason, toHotkeysHook } from '../../../src/app/keyboard/keys';

// A command object that skips defineCommand's own checks, to build deliberately bad registries.
const raw = (id: string, keys?: string): Command => ({ id, title: id, group: 'General', keys, run: () => {} });

describe('the real registry', () => {
  it('has no duplicate ids, no key clashes and no reserved keys', () => {
    expect(registryProblems(COMMANDS)).toEqual([]);
    expect(() => assertValidRegistry(COMMANDS)).not.toThrow();
  });

  it('contains the commands the product promises, on their keys', () => {
    const byId = new Map(COMMANDS.map((c) => [c.id, c]));
    const expected: Record<string, string | undefined> = {
      'palette.open': 'mod+k',
      'help.shortcuts': '?',
      'nav.assets': 'g a',
      'nav.customers': 'g c',
      'nav.users': 'g u',
      'nav.alarm-reports': 'g r',
      'nav.bulk-update': 'g b',
      'person.add': undefined,
      'tab.close': 'alt+w',
      'tab.reopen': 'alt+shift+t',
      'tab.next': 'alt+]',
      'tab.prev': 'alt+[',
      'tab.pin': 'alt+p',
      'pane.split-right': 'alt+\\',
      'pane.split-down': 'alt+-',
      'pane.focus-next': 'alt+`',
      'tab.move-to-other-pane': 'alt+m',
      'pane.grow': 'alt+.',
      'pane.shrink': 'alt+,',
      'app.logout': undefined,
    };
    for (let n = 1; n <= 9; n++) expected[`tab.go-${n}`] = `alt+${n}`;
    for (const [id, keys] of Object.entries(expected)) {
      expect(byId.has(id), id).toBe(true);
      expect(byId.get(id)!.keys, id).toBe(keys);
    }
    expect(byId.get('person.add')!.permission).toBe('Person.Create');
  });

  it('every command is defined through defineCommand (ids namespaced, palette flag set)', () => {
    for (const c of COMMANDS) {
      expect(c.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/);
      expect(typeof c.palette).toBe('boolean');
    }
  });
});

describe('bad registries fail', () => {
  it('a duplicate id', () => {
    const problems = registryProblems([raw('tab.close', 'alt+w'), raw('tab.close', 'alt+q')]);
    expect(problems).toEqual(['duplicate command id "tab.close" (2 times)']);
    expect(() => assertValidRegistry([...COMMANDS, raw('nav.users')])).toThrow(/duplicate command id "nav.users"/);
  });

  it('two commands on the same key, also when spelt differently or via mod', () => {
    expect(registryProblems([raw('a.one', 'alt+w'), raw('a.two', 'Alt+W')])).toEqual(['key clash on "alt+w": a.one and a.two']);
    expect(registryProblems([raw('a.one', 'mod+k'), raw('a.two', 'ctrl+k')])).toEqual(['key clash on "ctrl+k": a.one and a.two']);
    expect(registryProblems([raw('a.one', '?'), raw('a.two', 'shift+/')])).toEqual(['key clash on "shift+/": a.one and a.two']);
    expect(() => assertValidRegistry([...COMMANDS, raw('x.users', 'g u')])).toThrow(/key clash on "g u": nav.users and x.users/);
  });

  it("a key that is the first step of another command's sequence", () => {
    expect(registryProblems([raw('a.one', 'g'), raw('a.two', 'g u')])).toEqual(['key clash: a.one takes "g", the first key of a.two ("g u")']);
  });

  it('a reserved key, in the registry check and already in defineCommand', () => {
    for (const keys of ['mod+t', 'ctrl+w', 'meta+n', 'tab', 'mod+shift+t', 'mod+l', 'alt+left', 'alt+right', 'ctrl+pagedown', 'ctrl+pageup', 'f5', 'mod+r']) {
      expect(registryProblems([raw('a.bad', keys)]).join(), keys).toMatch(/reserved by the browser/);
      expect(() => defineCommand(raw('a.bad', keys)), keys).toThrow(/reserved/);
    }
    expect(() => assertValidRegistry([...COMMANDS, raw('x.new-tab', 'mod+t')])).toThrow(/x.new-tab: key "mod\+t" is reserved/);
  });

  it('unknown key names and malformed ids', () => {
    expect(registryProblems([raw('a.one', 'alt+wat')])[0]).toMatch(/unknown key/);
    expect(() => defineCommand(raw('nonamespace'))).toThrow(/namespaced/);
    expect(() => defineCommand({ ...raw('a.b'), keys: 'g alt+u' })).toThrow(/sequences are plain keys/);
  });
});

describe('key notation', () => {
  it('parses chords and sequences', () => {
    expect(parseKeys('g u')).toMatchObject({ sequence: true, chords: [{ key: 'g' }, { key: 'u' }] });
    expect(parseKeys('alt+shift+t').chords[0]).toMatchObject({ alt: true, shift: true, key: 't' });
    expect(parseKeys('?').chords[0]).toMatchObject({ shift: true, key: '/' });
    expect(parseKeys('alt+-').chords[0]).toMatchObject({ alt: true, key: '-' });
  });

  it('mod stands for Ctrl and ⌘', () => {
    expect(canonicalForms('mod+k').sort()).toEqual(['ctrl+k', 'meta+k']);
    expect(canonicalForms('g u')).toEqual(['g u']);
  });

  it('converts to react-hotkeys-hook syntax (code names, > for sequences)', () => {
    expect(toHotkeysHook('g u')).toBe('g>u');
    expect(toHotkeysHook('mod+k')).toBe('mod+k');
    expect(toHotkeysHook('?')).toBe('shift+slash');
    expect(toHotkeysHook('alt+]')).toBe('alt+bracketright');
    expect(toHotkeysHook('alt+\\')).toBe('alt+backslash');
    expect(toHotkeysHook('alt+`')).toBe('alt+backquote');
    expect(toHotkeysHook('alt+,')).toBe('alt+comma');
  });

  it('formats for people, per platform', () => {
    expect(formatKeys('mod+k', false)).toEqual(['Ctrl+K']);
    expect(formatKeys('mod+k', true)).toEqual(['⌘K']);
    expect(formatKeys('g u', false)).toEqual(['G', 'U']);
    expect(formatKeysText('g u', false)).toBe('G then U');
    expect(formatKeys('?', false)).toEqual(['?']);
    expect(formatKeys('alt+shift+t', false)).toEqual(['Alt+Shift+T']);
    expect(formatKeys('alt+shift+t', true)).toEqual(['⌥⇧T']);
  });

  it('the reserved list covers the keys the browser keeps', () => {
    for (const keys of [
      'ctrl+t',
      'meta+t',
      'ctrl+w',
      'ctrl+n',
      'ctrl+tab',
      'tab',
      'ctrl+shift+t',
      'ctrl+l',
      'alt+left',
      'alt+right',
      'ctrl+pageup',
      'ctrl+pagedown',
      'f5',
      'ctrl+r',
    ]) {
      expect(reservedReason(keys), keys).not.toBeNull();
    }
    expect(reservedReason('alt+w')).toBeNull();
    expect(RESERVED_KEYS.length).toBeGreaterThan(20);
  });
});
