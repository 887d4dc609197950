import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installDomGaps, renderWithApp, resetAll, signIn } from './helpers';
import { first } from '../../helpers/lists';
import { appStore } from '../../../src/app/state/store';
import { http } from '../../../src/app/api/http';
import { openRoute } from '../../../src/app/workspace/actions';
import { Palette } from '../../../src/app/palette/palette';
import { paletteOpenAtom, pushRecent, readRecents, MAX_RECENTS, type Recent } from '../../../src/app/palette/state';
import { filterCommands, scoreCommand } from '../../../src/app/palette/match';
import { parseScoped } from '../../../src/app/palette/scopes';
import { COMMANDS } from '../../../commands/index';
import { MSG } from '../../../src/shared/messages';
import { ALL_PERMISSIONS, P } from '../../../src/shared/permissions';
import type { SearchResponse } from '../../../src/shared/schemas/search';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));
vi.mock('../../../src/app/workspace/actions', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/app/workspace/actions')>();
  return { ...real, openRoute: vi.fn(() => true) };
});

const httpMock = vi.mocked(http);

const persons = (q: string, ...names: string[]): SearchResponse => ({
  query: q,
  groups: [
    {
      kind: 'person',
      label: 'Persons',
      hits: names.map((n, i) => ({
        id: `p${i}-${n}`,
        kind: 'person',
        title: n,
        subtitle: `${n.toLowerCase().replace(/ /g, '.')}@example.com`,
        href: `/persons/edit/p${i}-${n.replace(/ /g, '')}`,
        score: 3,
        matched: 'name',
      })),
    },
    { kind: 'customer', label: 'Customers', hits: [] },
  ],
});

beforeAll(installDomGaps);
beforeEach(() => {
  httpMock.mockReset();
  vi.mocked(openRoute).mockClear();
});
afterEach(cleanup);

/**
 * Record searches the test answers itself: `asked(q)` waits for the request for `q`, `answer(q,
 * ...names)` waits for it and answers it with those persons.
 */
function heldSearches() {
  const pending = new Map<string, (r: SearchResponse) => void>();
  httpMock.mockImplementation((_p, o) => new Promise((resolve) => pending.set(String(o?.query?.q), resolve as (r: SearchResponse) => void)));
  const asked = (q: string) => waitFor(() => expect(pending.has(q)).toBe(true));
  const answer = async (q: string, ...names: string[]) => {
    await asked(q);
    await act(async () => pending.get(q)!(persons(q, ...names)));
  };
  return { asked, answer };
}

function open(permissions: readonly string[] = ALL_PERMISSIONS) {
  resetAll('/');
  signIn('user-1', permissions);
  appStore.set(paletteOpenAtom, true);
  const user = userEvent.setup();
  renderWithApp(<Palette commands={COMMANDS} />);
  return { user, input: screen.getByRole('combobox') };
}

describe('records from the server', () => {
  it('typing searches the server (debounced) and shows grouped hits', async () => {
    httpMock.mockImplementation(async (_p, o) => persons(String(o?.query?.q), 'Ann Smith', 'Anna Jones'));
    const { input } = open();
    expect(input).toHaveFocus();
    // No delay between keys: the keystrokes never yield to the timer queue, so the debounce
    // decides, not how busy the machine is (with user-event's default delay a loaded CI machine
    // could let the 40 ms debounce fire between two keys).
    await userEvent.setup({ delay: null }).type(input, 'ann');
    const group = await screen.findByRole('group', { name: 'Persons' });
    expect(
      within(group)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Ann Smithann.smith@example.com', 'Anna Jonesanna.jones@example.com']);
    expect(screen.queryByRole('group', { name: 'Customers' })).toBeNull(); // empty groups are left out
    // debounced: one request for the whole word, with scope and limit
    expect(httpMock).toHaveBeenCalledTimes(1);
    const [path, opts] = first(httpMock.mock.calls);
    expect(path).toBe('/api/search');
    expect(opts).toMatchObject({ query: { q: 'ann', scope: 'all', limit: 8 } });
    expect(opts!.signal).toBeInstanceOf(AbortSignal);
  });

  it('an answer that arrives after a newer one is discarded, and the superseded request is aborted', async () => {
    const pending = new Map<string, { resolve: (r: SearchResponse) => void; signal: AbortSignal }>();
    httpMock.mockImplementation(
      (_p, o) => new Promise((resolve) => pending.set(String(o?.query?.q), { resolve: resolve as (r: SearchResponse) => void, signal: o!.signal! })),
    );
    const { user, input } = open();
    await user.type(input, 'jo');
    await waitFor(() => expect(pending.has('jo')).toBe(true));
    await user.type(input, 'n');
    await waitFor(() => expect(pending.has('jon')).toBe(true));
    expect(pending.get('jo')!.signal.aborted).toBe(true);
    await act(async () => pending.get('jon')!.resolve(persons('jon', 'Jon Newer')));
    expect(await screen.findByRole('option', { name: /Jon Newer/ })).toBeInTheDocument();
    await act(async () => pending.get('jo')!.resolve(persons('jo', 'Joe Older')));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('option', { name: /Joe Older/ })).toBeNull();
    expect(screen.getByRole('option', { name: /Jon Newer/ })).toBeInTheDocument();
  });

  it('Enter opens the hit in the focused pane, closes the palette and remembers it', async () => {
    httpMock.mockImplementation(async (_p, o) => persons(String(o?.query?.q), 'Ann Smith'));
    const { user, input } = open();
    await user.type(input, 'ann');
    await screen.findByRole('option', { name: /Ann Smith/ });
    await user.keyboard('{Enter}');
    // The hit shown may still be the answer for 'an' (listed, not usable, on a busy machine): Enter
    // then waits for the answer for 'ann' and opens its hit.
    await waitFor(() => expect(openRoute).toHaveBeenCalledWith('/persons/edit/p0-AnnSmith', { beside: false, focus: true }, appStore));
    await waitFor(() => expect(appStore.get(paletteOpenAtom)).toBe(false));
    expect(readRecents('user-1')[0]).toMatchObject({ type: 'record', title: 'Ann Smith', href: '/persons/edit/p0-AnnSmith' });
  });

  it('records that arrive after a command is shown highlighted do not move the highlight: Enter runs the command', async () => {
    // each text's request answered by the test (typing slowly can ask for a part of the text first)
    const { answer } = heldSearches();
    const { user, input } = open();
    await user.type(input, 'settings');
    const command = await screen.findByRole('option', { name: /Go to Provider Settings/ });
    await waitFor(() => expect(command).toHaveAttribute('aria-selected', 'true'));
    await answer('settings', 'Settings Person');
    const hit = await screen.findByRole('option', { name: /Settings Person/ });
    // The hit is listed first, above the commands, and the command keeps the highlight.
    expect(screen.getAllByRole('option')[0]).toBe(hit);
    expect(hit).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('option', { name: /Go to Provider Settings/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(openRoute).toHaveBeenCalledWith('/provider-settings', expect.anything(), expect.anything()));
    expect(openRoute).not.toHaveBeenCalledWith(expect.stringContaining('/persons/'), expect.anything(), expect.anything());
  });

  it('a hit kept from the previous text gives way to the best hit of the new answer', async () => {
    const { answer } = heldSearches();
    const { user, input } = open();
    await user.type(input, 'jo');
    await answer('jo', 'Joe Older', 'Jon Newer');
    await waitFor(() => expect(screen.getByRole('option', { name: /Joe Older/ })).toHaveAttribute('aria-selected', 'true'));
    await user.type(input, 'n');
    await answer('jon', 'Jon Newer', 'Joe Older');
    await waitFor(() => expect(screen.getByRole('option', { name: /Jon Newer/ })).toHaveAttribute('aria-selected', 'true'));
  });

  it("Enter on a hit kept from an earlier text waits for this text's answer and opens its best hit", async () => {
    const { asked, answer } = heldSearches();
    const { user, input } = open();
    await user.type(input, 'jo');
    await answer('jo', 'Joe Older', 'Jon Newer');
    await screen.findByRole('option', { name: /Jon Newer/ });
    // the rest typed and Enter pressed before the answer for the whole text: nothing opens yet
    await user.type(input, 'n');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await asked('jon');
    expect(openRoute).not.toHaveBeenCalled();
    expect(appStore.get(paletteOpenAtom)).toBe(true);
    // the answer for 'jon' opens its best hit (beside: Ctrl+Enter), not the first hit for 'jo'
    await answer('jon', 'Jon Newer', 'Joe Older');
    await waitFor(() => expect(openRoute).toHaveBeenCalledWith('/persons/edit/p0-JonNewer', { beside: true, focus: true }, appStore));
    expect(openRoute).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(appStore.get(paletteOpenAtom)).toBe(false));
  });

  it('hits kept from an earlier text are listed but not usable; a waiting Enter is dropped when typing goes on', async () => {
    const { answer } = heldSearches();
    const { user, input } = open();
    await user.type(input, 'jo');
    await answer('jo', 'Joe Older', 'Jon Newer');
    await waitFor(() => expect(screen.getByRole('option', { name: /Joe Older/ })).toHaveAttribute('aria-selected', 'true'));
    await user.type(input, 'n');
    for (const name of [/Joe Older/, /Jon Newer/]) {
      const kept = screen.getByRole('option', { name });
      expect(kept).toHaveAttribute('aria-disabled', 'true');
      expect(kept).toHaveAttribute('aria-selected', 'false');
    }
    await user.keyboard('{ArrowDown}{Enter}');
    await user.type(input, 'a');
    await answer('jona', 'Jona Other');
    await waitFor(() => expect(screen.getByRole('option', { name: /Jona Other/ })).toHaveAttribute('aria-selected', 'true'));
    expect(openRoute).not.toHaveBeenCalled();
    expect(appStore.get(paletteOpenAtom)).toBe(true);
  });

  it('a command matching the whole text is highlighted over hits kept from its first letters: Enter runs it at once', async () => {
    const { asked, answer } = heldSearches();
    const { user, input } = open();
    await user.type(input, 'se');
    await answer('se', 'Sean Early');
    await screen.findByRole('option', { name: /Sean Early/ });
    await user.type(input, 'ttings');
    const command = await screen.findByRole('option', { name: /Go to Provider Settings/ });
    // the kept hit is still listed first; the command answers the text and has the highlight
    expect(screen.getAllByRole('option')[0]).toHaveTextContent('Sean Early');
    await waitFor(() => expect(command).toHaveAttribute('aria-selected', 'true'));
    await asked('settings'); // asked (after the search's debounce), not answered
    await user.keyboard('{Enter}');
    await waitFor(() => expect(openRoute).toHaveBeenCalledWith('/provider-settings', expect.anything(), expect.anything()));
    expect(openRoute).not.toHaveBeenCalledWith(expect.stringContaining('/persons/'), expect.anything(), expect.anything());
  });

  it('Ctrl+Enter opens it beside', async () => {
    httpMock.mockImplementation(async (_p, o) => persons(String(o?.query?.q), 'Ann Smith', 'Anna Jones'));
    const { user, input } = open();
    // Typed without a pause, so that the one answer is for the whole text: an answer for 'an' that a
    // loaded machine lets through between two keys lists hits the answer for 'ann' then replaces,
    // and its best hit takes the highlight back from the one ArrowDown moved to.
    await userEvent.setup({ delay: null }).type(input, 'ann');
    await screen.findByRole('option', { name: /Anna Jones/ });
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('option', { name: /Anna Jones/ })).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(openRoute).toHaveBeenCalledWith('/persons/edit/p1-AnnaJones', { beside: true, focus: true }, appStore);
  });

  it("shows No results, and the server's message on failure", async () => {
    httpMock.mockImplementation(async (_p, o) => ({ query: String(o?.query?.q), groups: [] }));
    const { user, input } = open();
    await user.type(input, 'qqqqzz');
    expect(await screen.findByText(MSG.selectNoResults)).toBeInTheDocument();
    httpMock.mockRejectedValue(Object.assign(new Error('500'), { data: { Content: { Message: 'Search is down.' } } }));
    await user.type(input, 'x');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search is down.');
  });
});

describe('scopes', () => {
  it('a prefix becomes a chip that narrows the search; Backspace on the empty box removes it', async () => {
    httpMock.mockImplementation(async (_p, o) => persons(String(o?.query?.q), 'Ann Smith'));
    const { user, input } = open();
    await user.type(input, '@');
    expect(screen.getByText('Persons', { selector: '.palette-chip' })).toBeInTheDocument();
    expect(input).toHaveValue('');
    expect(screen.getByText(MSG.selectTypeToShow)).toBeInTheDocument();
    await user.type(input, 'ann');
    await screen.findByRole('option', { name: /Ann Smith/ });
    // the search sent as typed, debounced: wait for it (an answer to 'a' may show first)
    await waitFor(() => expect(httpMock.mock.calls.at(-1)![1]).toMatchObject({ query: { q: 'ann', scope: 'persons' } }));
    // no commands in a record scope
    expect(screen.queryByRole('group', { name: 'Commands' })).toBeNull();
    await user.clear(input);
    await user.keyboard('{Backspace}');
    expect(document.querySelector('.palette-chip')).toBeNull();
  });

  it('> lists commands only, filtered locally, with their shortcut', async () => {
    const { user, input } = open();
    await user.type(input, '>split');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.querySelector('.palette-row-title')!.textContent)).toEqual(['Split pane right', 'Split pane down']);
    expect(within(first(options)).getByText('Alt+\\')).toBeInTheDocument();
    expect(httpMock).not.toHaveBeenCalled();
  });

  it('parses prefixes', () => {
    expect(parseScoped('#123')).toEqual({ scope: '#', text: '123' });
    expect(parseScoped('$ acme')).toEqual({ scope: '$', text: 'acme' });
    expect(parseScoped('!9')).toEqual({ scope: '!', text: '9' });
    expect(parseScoped('plain')).toEqual({ scope: null, text: 'plain' });
  });
});

describe('commands', () => {
  it('commands the user lacks permission for are absent', async () => {
    const { user, input } = open([P.HasAccess, P.PersonListView]);
    await user.type(input, '>user');
    await screen.findByRole('option', { name: /Go to User Management/ });
    expect(screen.queryByRole('option', { name: /Add user/ })).toBeNull();
    cleanup();
    const again = open(ALL_PERMISSIONS);
    await again.user.type(again.input, '>add user');
    expect(await screen.findByRole('option', { name: /Add user/ })).toBeInTheDocument();
  });

  it('commands that do not apply now are disabled and say why', async () => {
    const { user, input } = open();
    await user.type(input, '>focus next');
    const option = await screen.findByRole('option', { name: /Focus next pane/ });
    expect(option).toHaveAttribute('aria-disabled', 'true');
    expect(option).toHaveTextContent('There is only one pane.');
  });

  it('Enter on a command closes the palette and runs it', async () => {
    const { user, input } = open();
    await user.type(input, '>go to user');
    await screen.findByRole('option', { name: /Go to User Management/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(openRoute).toHaveBeenCalledWith('/persons', { beside: false, focus: true }, appStore));
    expect(appStore.get(paletteOpenAtom)).toBe(false);
    expect(readRecents('user-1')[0]).toEqual({ type: 'command', id: 'nav.users' });
  });

  it('the empty box shows recents first, then commands', async () => {
    resetAll('/');
    localStorage.setItem(
      'palette-recents:user-1',
      JSON.stringify([
        { type: 'record', id: 'p1', kind: 'person', title: 'Ann Smith', subtitle: 'ann@example.com', href: '/persons/edit/p1' },
        { type: 'command', id: 'pane.split-right' },
      ] satisfies Recent[]),
    );
    signIn('user-1');
    appStore.set(paletteOpenAtom, true);
    renderWithApp(<Palette commands={COMMANDS} />);
    const groups = screen.getAllByRole('group');
    expect(groups[0]).toHaveAccessibleName('Recent');
    expect(
      within(first(groups))
        .getAllByRole('option')
        .map((o) => o.querySelector('.palette-row-title')!.textContent),
    ).toEqual(['Ann Smith', 'Split pane right']);
    expect(groups[1]).toHaveAccessibleName('Commands');
    expect(httpMock).not.toHaveBeenCalled();
  });

  it('keeps the keyboard when a page behind it autofocuses a field', async () => {
    const { input } = open();
    const outside = document.createElement('input');
    document.body.appendChild(outside);
    act(() => outside.focus());
    await waitFor(() => expect(input).toHaveFocus());
    outside.remove();
  });

  it('Escape closes the palette', async () => {
    const { user } = open();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(appStore.get(paletteOpenAtom)).toBe(false));
  });
});

describe('helpers', () => {
  it('recents: newest first, no duplicates, capped', () => {
    let list: Recent[] = [];
    for (let i = 0; i < MAX_RECENTS + 3; i++) list = pushRecent(list, { type: 'command', id: `c.${i}` });
    list = pushRecent(list, { type: 'command', id: 'c.5' });
    expect(list).toHaveLength(MAX_RECENTS);
    expect(list[0]).toEqual({ type: 'command', id: 'c.5' });
    expect(list.filter((r) => r.id === 'c.5')).toHaveLength(1);
  });

  it('command matching ranks title prefixes over keywords and fuzzy hits; contextual first', () => {
    const split = COMMANDS.find((c) => c.id === 'pane.split-right')!;
    expect(scoreCommand(split, 'split')).toBeGreaterThan(scoreCommand(split, 'compare'));
    expect(scoreCommand(split, 'compare')).toBeGreaterThan(0);
    expect(scoreCommand(split, 'spr')).toBeGreaterThan(0); // fuzzy
    expect(scoreCommand(split, 'zzz')).toBe(0);
    const onPersons = filterCommands(
      COMMANDS.filter((c) => c.palette !== false),
      '',
      'persons',
    );
    expect(first(onPersons).id).toBe('person.add');
  });

  it('a word of a command’s title ranks above keywords, even a contextual command’s: >monthly on the alarm list finds the monthly report first', () => {
    const commands = COMMANDS.filter((c) => c.palette !== false);
    const monthly = filterCommands(commands, 'monthly', 'alarmReports');
    expect(first(monthly).title).toBe('Open Monthly Management Report');
    const schedule = monthly.findIndex((c) => c.title.startsWith('Schedule this alarm list'));
    expect(schedule).toBeGreaterThan(0);
    // with no text, the focused page's commands still come first
    expect(filterCommands(commands, '', 'alarmReports')[0]!.routes).toContain('alarmReports');
  });
});

describe('records the role cannot open', () => {
  it('are not offered; persons a role may list but not edit are (they open the read view)', async () => {
    httpMock.mockImplementation(async (_p, o) => persons(String(o?.query?.q), 'Ann Smith'));
    const arc = open([P.HasAccess, P.AlarmReportListView, P.AlarmReportView]);
    await arc.user.type(arc.input, 'ann');
    await waitFor(() => expect(httpMock).toHaveBeenCalled());
    expect(await screen.findByText(MSG.selectNoResults)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Persons' })).toBeNull();
    cleanup();

    const manager = open([P.HasAccess, P.PersonListView]);
    await manager.user.type(manager.input, 'ann');
    const group = await screen.findByRole('group', { name: 'Persons' });
    expect(within(group).getAllByRole('option')).toHaveLength(1);
  });
});
