// The shell's groundwork: deep links survive sign-in, plain words for areas not built
// yet, the read view for list-only roles, toasts that go when their error is fixed and stay off
// the tab strips, the 2FA destination, the ? sheet, phone display.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { first } from '../../helpers/lists';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Root } from '../../../src/app/app';
import { RETURN_TO_KEY, rememberReturnPath, takeReturnPath } from '../../../src/app/shell/return-to';
import { READ_VIEWS, RouteView, VIEWS } from '../../../src/app/workspace/views';
import { ROUTES, type RouteId } from '../../../src/app/paths';
import { NOT_AVAILABLE_TEXT } from '../../../src/app/workspace/panels';
import { TabContext, type TabApi } from '../../../src/app/workspace/tab-context';
import { PersonDetails, formatDateOfBirth, formatHeight, personTitle } from '../../../src/app/features/persons/person-details-dialog';
import { dismissAll, getToasts, toast, toastTop, ToastHost } from '../../../src/app/ui/toast';
import { CheatSheet, sheetRows } from '../../../src/app/keyboard/cheat-sheet';
import { cheatSheetOpenAtom } from '../../../src/app/keyboard/cheat-sheet-state';
import { COMMANDS } from '../../../commands/index';
import { displayNumber } from '../../../src/app/features/profile/phone';
import { CountryBadge } from '../../../src/app/features/profile/country-picker';
import { codeSentText } from '../../../src/app/features/auth/sign-in-errors';
import { CAPTCHA_PATH, altchaChallengeResponse } from '../app-core/captcha-stub';
import { makeUserInfo } from '../../helpers/fixtures';
import { appStore } from '../../../src/app/state/store';
import { MSG } from '../../../src/shared/messages';
import { P } from '../../../src/shared/permissions';
import { Providers, json, polyfillDom, resetApp, stubFetch, tokens } from '../app-core/helpers';
import { installDomGaps, renderWithApp, resetAll, signIn } from '../workspace/helpers';

vi.mock('../../../src/app/workspace/workspace', () => ({
  Workspace: () => <p>workspace here</p>,
  preloadInitialViews: () => Promise.resolve(),
  prefetchLikelyViews: () => Promise.resolve(),
}));

const PERSON_ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

beforeEach(() => {
  resetApp();
  polyfillDom();
  installDomGaps();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  dismissAll();
});

describe('a link survives sign-in', () => {
  it('a deep link opened signed out goes to /login, is remembered, and sign-in lands on it', async () => {
    stubFetch((c) => {
      if (c.url === CAPTCHA_PATH) return altchaChallengeResponse();
      if (c.url === '/connect/token') return json(tokens('ann'));
      if (c.url === '/api/v1/get-user-info') return json(makeUserInfo());
      return json({ Features: [] });
    });
    window.history.replaceState(null, '', `/persons/edit/${PERSON_ID}`);
    render(
      <Providers>
        <Root />
      </Providers>,
    );
    expect(await screen.findByRole('heading', { name: MSG.signInHeading })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(sessionStorage.getItem(RETURN_TO_KEY)).toBe(`/persons/edit/${PERSON_ID}`);

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ann@example.test');
    await user.type(screen.getByLabelText('Password'), 'Secret123!');
    await user.click(screen.getByRole('button', { name: MSG.logIn }));
    await waitFor(() => expect(window.location.pathname).toBe(`/persons/edit/${PERSON_ID}`));
    expect(sessionStorage.getItem(RETURN_TO_KEY)).toBeNull(); // used once
  });

  it('only workspace routes are remembered, canonically; taking it clears it', () => {
    rememberReturnPath('/nowhere');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('/');
    expect(takeReturnPath()).toBeNull();
    rememberReturnPath('/alarm-reports/');
    expect(takeReturnPath()).toBe('/alarm-reports');
    expect(takeReturnPath()).toBeNull();
  });
});

function tabApi(over: Partial<TabApi> = {}): TabApi {
  const fn = () => {};
  return {
    tabId: 't1',
    paneId: 'p1',
    route: 'personEdit',
    params: { userId: PERSON_ID },
    active: true,
    setTitle: vi.fn(),
    setDirty: fn,
    navigate: fn,
    back: vi.fn(),
    close: fn,
    ...over,
  };
}

function renderRoute(route: Parameters<typeof RouteView>[0]['route'], permissions: string[], tab = tabApi({ route })) {
  resetAll('/');
  signIn('user-1', permissions);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithApp(
    <QueryClientProvider client={qc}>
      <TabContext.Provider value={tab}>
        <RouteView route={route} href="/x" />
      </TabContext.Provider>
    </QueryClientProvider>,
  );
  return tab;
}

describe('where each role lands, in plain words', () => {
  it('an area not built yet says so without route names or paths', () => {
    // Any route without a page yet (areas get built one by one, so the test picks one itself).
    const unbuilt = (Object.keys(ROUTES) as RouteId[]).find((r) => !VIEWS[r] && !READ_VIEWS[r] && ROUTES[r].permission.includes('.'));
    if (!unbuilt) return; // every area is built
    renderRoute(unbuilt, [P.HasAccess, ROUTES[unbuilt].permission]);
    expect(screen.getByRole('heading', { name: ROUTES[unbuilt].title })).toBeInTheDocument();
    expect(screen.getByText(NOT_AVAILABLE_TEXT)).toBeInTheDocument();
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(document.body.textContent).not.toMatch(new RegExp(`route|${escape(unbuilt)}|${escape(ROUTES[unbuilt].pattern)}|opened as`));
  });

  it('a person a role may list but not edit opens the read view (User Details), not a permission error', async () => {
    stubFetch(() =>
      json({
        Person: {
          Id: PERSON_ID,
          FirstName: 'Ann',
          LastName: 'Smith',
          Contact: { EmailAddress: 'ann@example.com' },
          Roles: [],
          IsLocked: false,
          PersonStatus: 1,
          PersonalDetails: { DateOfBirth: '1990-05-01', Gender: { Id: 1, Name: 'Female' } },
          PhysicalInformation: { Height: { Unit: 'centimeters', CentimeterValue: 170 } },
        },
        Etag: 'e1',
      }),
    );
    const tab = renderRoute('personEdit', [P.HasAccess, P.PersonListView]);
    const dialog = await screen.findByRole('dialog', { name: 'Ann Smith' });
    expect(screen.queryByText(MSG.forbidden)).toBeNull();
    expect(within(dialog).getByRole('heading', { name: 'Personal information' })).toBeInTheDocument();
    expect(within(dialog).getByRole('heading', { name: 'Physical and medical information' })).toBeInTheDocument();
    expect(within(dialog).getByText('ann@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText('170 centimeters')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await waitFor(() => expect(tab.setTitle).toHaveBeenCalledWith('Ann Smith'));
    await userEvent.setup().click(first(within(dialog).getAllByRole('button', { name: 'Close' })));
    expect(tab.back).toHaveBeenCalled();
  });

  it('without the list permission the person route stays a permission message', () => {
    renderRoute('personEdit', [P.HasAccess, P.AlarmReportListView]);
    expect(screen.getByText(MSG.forbidden)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('read view values: empty shows -, age in whole years, height in either unit', () => {
    expect(formatDateOfBirth('2000-06-15', new Date('2026-06-14'))).toBe('15/06/2000 (age 25)');
    expect(formatDateOfBirth(null)).toBe('-');
    expect(formatHeight({ Unit: 'feet', FeetValue: 5, InchValue: 10, CentimeterValue: 178 })).toBe('5 ft 10 in');
    expect(personTitle({ FirstName: '', LastName: '' })).toBe('User Details');
    render(<PersonDetails person={{ FirstName: 'Bo' }} />);
    expect(screen.getAllByText('-').length).toBeGreaterThan(10);
  });
});

describe('toasts', () => {
  it('a success removes the error toasts; an error with a key goes when that key is resolved', () => {
    toast.error('Save failed.');
    toast.success('Saved.');
    expect(getToasts().map((t) => t.message)).toEqual(['Saved.']);
    dismissAll();
    toast.error('Could not load.', { key: 'query:a' });
    toast.resolve('query:b');
    expect(getToasts()).toHaveLength(1);
    toast.resolve('query:a');
    expect(getToasts()).toHaveLength(0);
  });

  it('sit below the top bar and the top row of tab strips', () => {
    const el = (cls: string, top: number, bottom: number) => {
      const d = document.createElement('div');
      d.className = cls;
      d.getBoundingClientRect = () => ({ top, bottom, height: bottom - top, left: 0, right: 0, width: 0, x: 0, y: top, toJSON: () => ({}) });
      document.body.appendChild(d);
      return d;
    };
    expect(toastTop()).toBe(16); // signed out: nothing to avoid
    const a = el('top-bar', 0, 52);
    const b = el('ws-tabstrip', 52, 90);
    const c = el('ws-tabstrip', 400, 438); // a lower pane's strip: below the toasts anyway
    expect(toastTop()).toBe(98);
    render(<ToastHost />);
    act(() => void toast.info('Hello'));
    expect(screen.getByRole('region', { name: 'Notifications' })).toHaveStyle({ top: '98px' });
    a.remove();
    b.remove();
    c.remove();
  });

  it('signing in removes the sign-in error toasts (e.g. session expired)', async () => {
    toast.error(MSG.sessionExpired, { area: 'signin' });
    appStore.set((await import('../../../src/app/state/session')).sessionAtom, {
      accessToken: tokens('ann').access_token,
      tokenType: 'Bearer',
      refreshToken: 'r',
      expiresAt: Date.now() + 900_000,
    });
    stubFetch((c) =>
      c.url === '/api/v1/get-user-info' ? json({ userId: 'user-1', email: 'a@x.test', firstName: 'Ann', lastName: 'A' }) : json({ Features: [] }),
    );
    render(
      <Providers>
        <Root />
      </Providers>,
    );
    expect(await screen.findByText('workspace here')).toBeInTheDocument();
    await waitFor(() => expect(getToasts()).toHaveLength(0));
  });
});

describe('the 2FA step says where the code went', () => {
  it('e-mail, text message, or the server message without a destination', () => {
    expect(codeSentText({ data: { code_channel: 'email', code_sent_to: 'j•••@example.test' } })).toBe(
      'We sent a verification code by e-mail to j•••@example.test.',
    );
    expect(codeSentText({ data: { code_channel: 'sms', code_sent_to: '123' } })).toBe(
      'We sent a verification code by text message to your phone number ending in 123.',
    );
    expect(codeSentText({ data: { Content: { Message: 'A code is on its way.' } } })).toBe('A code is on its way.');
    expect(codeSentText({ data: null })).toBe(MSG.verificationCodeSent);
  });
});

describe('the ? sheet', () => {
  it("one 'Go to tab 1–9' row instead of nine, and a close button", async () => {
    const tabs = sheetRows(COMMANDS.filter((c) => c.group === 'Tabs' && c.keys));
    expect(tabs.filter((r) => r.title.startsWith('Go to tab'))).toHaveLength(1);
    expect(first(tabs.find((r) => r.id === 'tab.go-n')!.keys)[0]).toMatch(/1 … .*9/);
    resetAll('/');
    signIn('u1', [P.HasAccess]);
    renderWithApp(<CheatSheet commands={COMMANDS} />);
    act(() => appStore.set(cheatSheetOpenAtom, true));
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).queryByRole('rowheader', { name: 'Go to tab 2' })).toBeNull();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(appStore.get(cheatSheetOpenAtom)).toBe(false));
  });
});

describe('phone numbers and countries', () => {
  it('a number beside its dial code has no trunk 0', () => {
    expect(displayNumber('GB', '07700 900123')).toBe('7700 900123');
    expect(`+44 ${displayNumber('GB', '+44 07700 900123')}`).toBe('+44 7700 900123');
    expect(displayNumber('GB', 'not a number')).toBe('not a number');
  });

  it('countries are marked with their ISO code, not a flag emoji', () => {
    const { container } = render(<CountryBadge code="GB" />);
    expect(container.textContent).toBe('GB');
    expect(container.textContent).not.toMatch(/\p{Regional_Indicator}/u);
  });
});
