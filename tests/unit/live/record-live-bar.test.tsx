// A record's tab while others work on it (src/app/api/record-live.ts, src/app/ui/record-live-bar.tsx),
// over a stand-in hub client: another user's change shows "Changed by NAME — reload" and nothing
// else — what the user typed stays, the record is not fetched again — until the user reaches Reload
// with the keyboard; the user's own changes raise no bar; a note (also the user's own, from another
// tab) goes to the page's note handler instead; "Also open:" names the others; leaving the tab stops
// following the record.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atom } from 'jotai';
import { cleanup, render, screen, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Theme } from '@radix-ui/themes';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecordChangedEvent } from '../../../src/shared/schemas/record-live';

vi.mock('../../../src/app/api/live', async () => (await import('../../helpers/live-hub')).recordHubModule());
vi.mock('../../../src/app/state/session', () => ({ userIdAtom: atom('me-0000') }));

import { useRecordLive } from '../../../src/app/api/record-live';
import { RecordLiveBar } from '../../../src/app/ui/record-live-bar';
import { recordHub as hub, resetRecordHub } from '../../helpers/live-hub';
import { RECORD_LIVE_TEXT } from '../../../src/shared/messages';

const ID = '0b7f4c1e-8f7a-4d3b-9a51-5d7a3c2e1f00';
const change = (over: Partial<RecordChangedEvent> = {}): RecordChangedEvent => ({
  Kind: 'device',
  Id: ID,
  What: 'change',
  By: 'Bob Tester',
  ByUserId: 'bob-1111',
  At: '2026-11-29T10:00:00.000Z',
  Note: null,
  ...over,
});
const emit = (e: RecordChangedEvent) => act(() => hub.open().forEach((w) => w.handlers.onChanged?.(e)));
const presence = (names: string[]) => act(() => hub.open().forEach((w) => w.handlers.onPresence?.(names)));

/** A record tab as the pages build it: the stored record in a form field, the bar, Reload refetching. */
function RecordTab({ fetches, onNote }: { fetches: { n: number }; onNote?: (e: RecordChangedEvent) => void }) {
  const qc = useQueryClient();
  const record = useQuery({
    queryKey: ['devices', 'detail', ID],
    queryFn: async () => {
      fetches.n++;
      return { supplier: `Supplier v${fetches.n}` };
    },
  });
  const others = useRecordLive('device', ID, { onNote });
  if (!record.data) return null;
  return (
    <>
      <RecordLiveBar
        changedBy={others.changedBy}
        present={others.present}
        onReload={() => {
          others.clear();
          void qc.refetchQueries({ queryKey: ['devices', 'detail', ID] });
        }}
      />
      <label>
        Supplier
        <input defaultValue={record.data.supplier} />
      </label>
      <output aria-label="stored">{record.data.supplier}</output>
    </>
  );
}

function renderTab(props: { onNote?: (e: RecordChangedEvent) => void } = {}) {
  const fetches = { n: 0 };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const view = render(
    <QueryClientProvider client={qc}>
      <Theme>
        <RecordTab fetches={fetches} onNote={props.onNote} />
      </Theme>
    </QueryClientProvider>,
  );
  return { fetches, view };
}

beforeEach(() => {
  resetRecordHub();
});
afterEach(cleanup);

describe('the record tab while someone else changes the record', () => {
  it('shows the quiet bar and keeps what the user typed; Reload, reached by keyboard, fetches the record again', async () => {
    const user = userEvent.setup();
    const { fetches } = renderTab();
    const field = await screen.findByLabelText('Supplier');
    expect(hub.watchers).toMatchObject([{ kind: 'device', id: ID, stopped: false }]);

    await user.clear(field);
    await user.type(field, 'My unsaved supplier');
    emit(change());

    expect(await screen.findByText(RECORD_LIVE_TEXT.changedBy('Bob Tester'))).toBeTruthy();
    expect(screen.getByText('Changed by Bob Tester — reload')).toBeTruthy();
    // nothing under the user's hands changed: the typed text, the record as loaded, no fetch
    expect((field as HTMLInputElement).value).toBe('My unsaved supplier');
    expect(screen.getByLabelText('stored').textContent).toBe('Supplier v1');
    expect(fetches.n).toBe(1);
    expect(document.activeElement).toBe(field);

    // Reload is a button in the tab order: Shift+Tab from the field reaches it, Enter reloads
    await user.tab({ shift: true });
    expect(document.activeElement?.textContent).toBe(RECORD_LIVE_TEXT.reload);
    await user.keyboard('{Enter}');
    await screen.findByText('Supplier v2');
    expect(fetches.n).toBe(2);
    expect(screen.queryByText(RECORD_LIVE_TEXT.changedBy('Bob Tester'))).toBeNull();
  });

  it("raises no bar for the user's own change (another of their tabs), but hands their own note to the page", async () => {
    const notes: RecordChangedEvent[] = [];
    renderTab({ onNote: (e) => notes.push(e) });
    await screen.findByLabelText('Supplier');
    emit(change({ ByUserId: 'ME-0000', By: 'Me Myself' }));
    expect(screen.queryByRole('button', { name: RECORD_LIVE_TEXT.reload })).toBeNull();
    expect(screen.queryByText(/Changed by/)).toBeNull();
    const note = { Id: 'n0', Note: 'From my other tab.', CreatedDate: '2026-11-29T10:00:00.000Z', Person: { FullName: 'Me Myself', Roles: [] } };
    emit(change({ ByUserId: 'ME-0000', By: 'Me Myself', What: 'note', Note: note }));
    expect(notes).toMatchObject([{ Note: { Note: 'From my other tab.' } }]);
    expect(screen.queryByText(/Changed by/)).toBeNull();
  });

  it("hands another user's note to the page instead of the bar; without a note handler a note counts as a change", async () => {
    const notes: RecordChangedEvent[] = [];
    renderTab({ onNote: (e) => notes.push(e) });
    await screen.findByLabelText('Supplier');
    const note = { Id: 'n1', Note: 'Called the site.', CreatedDate: '2026-11-29T10:00:00.000Z', Person: { FullName: 'Bob Tester', Roles: [] } };
    emit(change({ What: 'note', Note: note }));
    expect(notes).toHaveLength(1);
    expect(screen.queryByText(/Changed by/)).toBeNull();
    cleanup();
    resetRecordHub();
    renderTab();
    await screen.findByLabelText('Supplier');
    emit(change({ What: 'note', Note: note }));
    expect(await screen.findByText(RECORD_LIVE_TEXT.changedBy('Bob Tester'))).toBeTruthy();
  });

  it('names the others who have the record open, and stops following it when the tab goes', async () => {
    const { view } = renderTab();
    await screen.findByLabelText('Supplier');
    presence(['Alice Smith', 'Bob Tester']);
    expect(await screen.findByText('Also open: Alice Smith, Bob Tester')).toBeTruthy();
    presence([]);
    expect(screen.queryByText(/Also open/)).toBeNull();
    view.unmount();
    expect(hub.watchers.every((w) => w.stopped)).toBe(true);
  });
});
