import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore } from '../../../src/app/state/store';
import { sessionAtom } from '../../../src/app/state/session';
import { SettingsDialog } from '../../../src/app/shell/settings-dialog';
import { getToasts } from '../../../src/app/ui/toast';
import { MSG } from '../../../src/shared/messages';
import { Providers, errorResponse, json, polyfillDom, resetApp, session, stubFetch, type Call } from './helpers';
import { answer, makeCountry, makeDictionaries, makeGlobalSettings, makeTwoFactorSetting, TWO_FACTOR_TYPES_ANSWER } from '../../helpers/fixtures';
import { CAPTCHA_PATH, altchaChallengeResponse, isSolvedCaptcha } from './captcha-stub';
import { slowMachine } from '../ui/slow-machine';

slowMachine();

const countries = [
  makeCountry({ Code: 'FR', Name: 'France', PhoneNumberCode: '33' }),
  makeCountry({ Code: 'GB', Name: 'United Kingdom', PhoneNumberCode: '44' }),
];

function server(
  opts: {
    mode?: number;
    saved?: 1 | 2 | null;
    stored?: () => Promise<1 | 2 | null>;
    password?: (c: Call) => Response;
    twoFactor?: (c: Call) => Response;
    captcha?: boolean;
  } = {},
) {
  return stubFetch((c) => {
    if (c.url === CAPTCHA_PATH) return opts.captcha === false ? errorResponse(503, 'unavailable') : altchaChallengeResponse();
    if (c.url === '/api/v1/get-user-two-factor-authentication')
      return opts.stored ? opts.stored().then((t) => json(makeTwoFactorSetting(t))) : json(makeTwoFactorSetting(opts.saved ?? null));
    if (c.url === '/api/v1/two-factor-authentication/types') return json(TWO_FACTOR_TYPES_ANSWER);
    if (c.url === '/customers/get-global-settings') return json(makeGlobalSettings(opts.mode ?? 0));
    if (c.url === '/ps-admin/dictionaries/get-all') return json(makeDictionaries({ Countries: countries }));
    if (c.url === '/api/v1/change-two-factor-authentication') return opts.twoFactor ? opts.twoFactor(c) : json(makeTwoFactorSetting());
    if (c.url === '/api/v1/change-password')
      return opts.password ? opts.password(c) : json(answer('POST /api/v1/change-password', { Content: { Message: MSG.passwordChanged } }));
    return errorResponse(404, 'not_found');
  });
}

beforeEach(() => {
  resetApp();
  polyfillDom();
  appStore.set(sessionAtom, session('ann'));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('settings dialog', () => {
  it('two-factor: Disabled by default when nothing is saved; SMS needs a valid number; saving sends the type and phone', async () => {
    const { calls } = server();
    const onOpenChange = vi.fn();
    render(
      <Providers>
        <SettingsDialog open onOpenChange={onOpenChange} />
      </Providers>,
    );
    expect(await screen.findByRole('tab', { name: new RegExp(`^${MSG.settingsTwoFactorTab}`) })).toBeInTheDocument();
    // (Radix Themes repeats the label in a CSS-hidden span, which jsdom counts in the name)
    expect(screen.getByRole('tab', { name: new RegExp(`^${MSG.settingsChangePasswordTab}`) })).toBeInTheDocument();
    const disabled = await screen.findByRole('radio', { name: MSG.twoFactorDisabled });
    await waitFor(() => expect(disabled).toBeChecked());

    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'SMS' }));
    // GB is listed first and chosen by default, in the profile's searchable picker (ISO badge, no emoji)
    const picker = await screen.findByRole('button', { name: 'Phone number country: United Kingdom +44' });
    expect(picker).toHaveTextContent('GB');
    expect(screen.queryByRole('combobox', { name: 'Country' })).toBeNull(); // no native select any more
    await user.click(picker);
    await user.type(await screen.findByRole('combobox', { name: /search/i }), 'fra');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Phone number country: France +33' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Phone number country: France +33' }));
    await user.type(await screen.findByRole('combobox', { name: /search/i }), 'united k');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Phone number country: United Kingdom +44' })).toBeInTheDocument();
    expect(screen.getByRole('dialog').querySelector('button[aria-label="Close"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter phone number')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Phone number'), '123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MSG.invalidPhone)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Phone number'));
    await user.type(screen.getByLabelText('Phone number'), '07400 123456');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter current password')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/v1/change-two-factor-authentication')).toHaveLength(0);
    await user.type(screen.getByLabelText('Current password'), 'Old-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.twoFactorChanged]));
    const put = calls.find((c) => c.url === '/api/v1/change-two-factor-authentication')!;
    expect(put.method).toBe('PUT');
    expect(JSON.parse(put.body!)).toEqual({
      twoFactorAuthentication: { type: 2, phoneNumber: { countryId: 'country-gb', number: '07400 123456', type: 2 } },
      captchaResponse: expect.any(String),
      currentPassword: 'Old-Passw0rd!',
    });
    expect(await isSolvedCaptcha(JSON.parse(put.body!).captchaResponse)).toBe(true);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('two-factor: reopened after a save, the dialog shows the saved type (not the one it opened with)', async () => {
    let saved: 1 | 2 | null = null;
    const { calls } = server({
      // a real server takes a moment: the read after the save is still under way when the dialog closes
      stored: async () => {
        const now = saved;
        if (now !== null) await new Promise((r) => setTimeout(r, 300));
        return now;
      },
      twoFactor: (c) => {
        saved = (JSON.parse(c.body!) as { twoFactorAuthentication: { type: 1 | 2 | null } }).twoFactorAuthentication.type;
        return json(makeTwoFactorSetting(saved));
      },
    });
    function Host() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open settings
          </button>
          <SettingsDialog open={open} onOpenChange={setOpen} />
        </>
      );
    }
    render(
      <Providers>
        <Host />
      </Providers>,
    );
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByRole('radio', { name: MSG.twoFactorDisabled })).toBeChecked());
    await user.click(screen.getByRole('radio', { name: 'Email' }));
    await user.type(screen.getByLabelText('Current password'), 'Old-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.twoFactorChanged]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.url === '/api/v1/change-two-factor-authentication')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Email' })).toBeChecked());
    expect(screen.getByRole('radio', { name: MSG.twoFactorDisabled })).not.toBeChecked();
  });

  it('two-factor: no Disabled option when the global mode is 1', async () => {
    server({ mode: 1, saved: 1 });
    render(
      <Providers>
        <SettingsDialog open onOpenChange={() => {}} />
      </Providers>,
    );
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Email' })).toBeChecked());
    expect(screen.queryByRole('radio', { name: MSG.twoFactorDisabled })).toBeNull();
  });

  it('change password: validates, shows the old-password error from the server, confirms success', async () => {
    let attempts = 0;
    const { calls } = server({
      password: () =>
        ++attempts === 1
          ? errorResponse(400, 'old_password_invalid', MSG.oldPasswordInvalid)
          : json(answer('POST /api/v1/change-password', { Content: { Message: MSG.passwordChanged } })),
    });
    const onOpenChange = vi.fn();
    render(
      <Providers>
        <SettingsDialog open onOpenChange={onOpenChange} />
      </Providers>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: new RegExp(`^${MSG.settingsChangePasswordTab}`) }));
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter old password')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Old password'), 'short');
    await user.type(screen.getByLabelText('New password'), 'New-Passw0rd!');
    await user.type(screen.getByLabelText('Repeat new password'), 'New-Passw0rd?');
    expect(await screen.findByText(MSG.passwordLength)).toBeInTheDocument();
    expect(await screen.findByText(MSG.passwordsDoNotMatch)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Old password'));
    await user.type(screen.getByLabelText('Old password'), 'Old-Passw0rd!');
    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MSG.oldPasswordInvalid)).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.passwordChanged]));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    const body = JSON.parse(calls.filter((c) => c.url === '/api/v1/change-password').at(-1)!.body!);
    expect(body).toEqual({
      oldPassword: 'Old-Passw0rd!',
      newPassword: 'New-Passw0rd!',
      newPasswordRepeated: 'New-Passw0rd!',
      captchaResponse: expect.any(String),
    });
    expect(await isSolvedCaptcha(body.captchaResponse)).toBe(true);
  });

  it('two-factor: a wrong current password shows under the field; no captcha shows the captcha message', async () => {
    const { calls } = server({ twoFactor: () => errorResponse(400, 'old_password_invalid', MSG.currentPasswordInvalid) });
    render(
      <Providers>
        <SettingsDialog open onOpenChange={() => {}} />
      </Providers>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Email' }));
    await user.type(screen.getByLabelText('Current password'), 'Wrong-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MSG.currentPasswordInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.url === '/api/v1/change-two-factor-authentication')).toHaveLength(1);
  });

  it('change password and two-factor: when no captcha can be had, the toast says so and nothing is sent', async () => {
    const { calls } = server({ captcha: false });
    render(
      <Providers>
        <SettingsDialog open onOpenChange={() => {}} />
      </Providers>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Email' }));
    await user.type(screen.getByLabelText('Current password'), 'Old-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toEqual([MSG.captchaFailed]));

    await user.click(screen.getByRole('tab', { name: new RegExp(`^${MSG.settingsChangePasswordTab}`) }));
    await user.type(await screen.findByLabelText('Old password'), 'Old-Passw0rd!');
    await user.type(screen.getByLabelText('New password'), 'New-Passw0rd!');
    await user.type(screen.getByLabelText('Repeat new password'), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(MSG.captchaFailed));
    expect(calls.filter((c) => c.url === '/api/v1/change-two-factor-authentication' || c.url === '/api/v1/change-password')).toHaveLength(0);
  });
});
