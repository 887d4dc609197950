// Spec §2 Settings dialog: 'Two-Factor Authentication' (Disabled / Email / SMS; Disabled is
// removed when TwoFactorAuthentication.Mode.Value is 1; SMS needs a phone number) and
// 'Change password' (old, new, repeat; minimum 8; repeat must match).
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { Button, Dialog, Flex, RadioGroup, Tabs, Text, TextField } from '@radix-ui/themes';
import { MSG, messageFromError } from '../../shared/messages';
import { changePasswordSchema } from '../../shared/schemas/auth';
import { PHONE_TYPE } from '../../shared/codes';
import { changePassword, changeTwoFactor, twoFactorSettingQuery, twoFactorTypesQuery } from '../api/auth';
import { dictionariesQuery, globalSettingsQuery } from '../api/reference';
import type { CountryDto as Country } from '../../shared/schemas/reference';
import { toast } from '../ui/toast';
import { FormField, PasswordField } from '../ui/form-field';
import { DialogCloseButton } from './dialog-close-button';
import { CountryPicker } from '../features/profile/country-picker';
import { displayNumber, examplePlaceholder } from '../features/profile/phone';
import { valibotResolver } from '../ui/valibot-resolver';
import { errorCode } from '../features/auth/sign-in-errors';
import { isCaptchaFailure, useCaptcha } from '../features/auth/captcha';
import { ActionButton } from '../ui/action-button';

export function SettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Content maxWidth="60rem" aria-describedby={undefined}>
        <Dialog.Title>{MSG.menuSettings}</Dialog.Title>
        <DialogCloseButton />
        <Tabs.Root defaultValue="two-factor">
          <Tabs.List>
            <Tabs.Trigger value="two-factor">{MSG.settingsTwoFactorTab}</Tabs.Trigger>
            <Tabs.Trigger value="password">{MSG.settingsChangePasswordTab}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="two-factor">
            <TwoFactorTab onDone={() => onOpenChange(false)} />
          </Tabs.Content>
          <Tabs.Content value="password">
            <ChangePasswordTab onDone={() => onOpenChange(false)} />
          </Tabs.Content>
        </Tabs.Root>
      </Dialog.Content>
    </Dialog.Root>
  );
}

const DISABLED = '0';
const SMS = '2';

/** Spec §9: GB first, then the rest alphabetically. */
export function sortCountries(list: Country[]): Country[] {
  return [...list].sort((a, b) => (a.Code === 'GB' ? -1 : b.Code === 'GB' ? 1 : a.Name.localeCompare(b.Name, 'en-GB')));
}

function TwoFactorTab({ onDone }: { onDone: () => void }) {
  const qc = useQueryClient();
  const setting = useQuery(twoFactorSettingQuery());
  const types = useQuery(twoFactorTypesQuery());
  const global = useQuery(globalSettingsQuery());
  const [type, setType] = useState<string | null>(null);
  const [countryId, setCountryId] = useState('');
  const [number, setNumber] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const captcha = useCaptcha();
  const smsChosen = type === SMS;
  const dictionaries = useQuery({ ...dictionariesQuery(), enabled: smsChosen });
  const countries = useMemo(() => sortCountries(dictionaries.data?.Countries ?? []), [dictionaries.data]);

  const selectedCountry = countries.find((c) => c.Id === countryId);

  const enforced = global.data?.TwoFactorAuthentication?.Mode?.Value === 1;
  const options = useMemo(() => {
    const list = (types.data ?? []).map((t) => {
      const o = t as { name?: string; value?: number; Name?: string; Value?: number };
      return { value: String(o.value ?? o.Value), label: String(o.name ?? o.Name) };
    });
    return enforced ? list : [{ value: DISABLED, label: MSG.twoFactorDisabled }, ...list];
  }, [types.data, enforced]);

  // Start from what is saved: Disabled when nothing is (unless Disabled is not offered).
  useEffect(() => {
    if (!setting.data || type !== null) return;
    const saved = setting.data.twoFactorAuthentication;
    setType(saved.type ? String(saved.type.value) : enforced ? null : DISABLED);
    if (saved.phoneNumber) {
      setCountryId(saved.phoneNumber.countryId);
      setNumber(saved.phoneNumber.number);
    }
  }, [setting.data, enforced, type]);
  useEffect(() => {
    const [first] = countries;
    if (smsChosen && !countryId && first) setCountryId(first.Id);
  }, [smsChosen, countryId, countries]);
  // The saved number beside its dial code, without the trunk 0 ('+44' + '7700 900123'), once the countries are known.
  const shownSaved = useRef(false);
  useEffect(() => {
    const code = countries.find((c) => c.Id === countryId)?.Code;
    if (shownSaved.current || !code || !number) return;
    shownSaved.current = true;
    setNumber(displayNumber(code, number));
  }, [countries, countryId, number]);

  const save = useMutation({
    mutationFn: async () => {
      const t = type && type !== DISABLED ? Number(type) : null;
      const phone = t === 2 ? { countryId, number: number.trim(), type: PHONE_TYPE.Personal } : null;
      return changeTwoFactor(t, phone, { captchaResponse: await captcha.getCaptchaResponse(), currentPassword });
    },
    onSuccess: (saved) => {
      toast.success(MSG.twoFactorChanged);
      // The answer is the saved setting: the cache holds it at once, so the dialog reopens with it
      // even when the refetch below is cancelled by the dialog closing.
      qc.setQueryData(twoFactorSettingQuery().queryKey, saved);
      void qc.invalidateQueries({ queryKey: twoFactorSettingQuery().queryKey });
      onDone();
    },
    onError: (err) => {
      if (errorCode(err) === 'old_password_invalid') return setPasswordError(MSG.currentPasswordInvalid);
      toast.error(isCaptchaFailure(err) ? MSG.captchaFailed : messageFromError((err as { data?: unknown }).data));
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setPhoneError(null);
    setPasswordError(null);
    if (type === null) return;
    if (smsChosen) {
      if (!number.trim()) return setPhoneError(MSG.pleaseEnter('phone_number'));
      const country = countries.find((c) => c.Id === countryId);
      const parsed = country && parsePhoneNumberFromString(number, country.Code as CountryCode);
      if (!parsed?.isValid()) return setPhoneError(MSG.invalidPhone);
    }
    if (!currentPassword) return setPasswordError(MSG.pleaseEnter('current_password'));
    save.mutate();
  };

  if (setting.isPending || types.isPending || global.isPending)
    return (
      <Text as="p" my="4">
        Loading…
      </Text>
    );
  if (setting.isError || types.isError || global.isError)
    return (
      <Text as="p" my="4" color="red">
        {MSG.default}
      </Text>
    );

  return (
    <form onSubmit={submit} noValidate className="settings-form">
      <Flex direction="column" gap="3" mt="4">
        <Text as="div" id="two-factor-type-label" weight="medium" size="2">
          Type
        </Text>
        <RadioGroup.Root value={type ?? ''} onValueChange={setType} aria-labelledby="two-factor-type-label">
          {options.map((o) => (
            <RadioGroup.Item key={o.value} value={o.value}>
              {o.label}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        {smsChosen && (
          // The same searchable country picker as the profile page, the dial code beside the number.
          <FormField label="Phone number" required error={phoneError ?? undefined}>
            {(aria) => (
              <Flex gap="2" align="center">
                <CountryPicker
                  countries={countries}
                  value={selectedCountry?.Code ?? ''}
                  label="Phone number"
                  onChange={(code) => setCountryId(countries.find((c) => c.Code === code)?.Id ?? '')}
                />
                <TextField.Root
                  {...aria}
                  type="tel"
                  autoComplete="tel-national"
                  value={number}
                  onChange={(e) => setNumber(e.target.value)}
                  placeholder={selectedCountry ? examplePlaceholder(selectedCountry.Code) : undefined}
                  style={{ flex: 1, minWidth: '12rem' }}
                >
                  <TextField.Slot>
                    <span aria-hidden="true">{selectedCountry ? `+${selectedCountry.PhoneNumberCode.replace(/^\+/, '')}` : ''}</span>
                  </TextField.Slot>
                </TextField.Root>
              </Flex>
            )}
          </FormField>
        )}
        <div style={{ maxWidth: '28rem' }}>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            error={passwordError ?? undefined}
          />
        </div>
        <CancelSave busy={save.isPending} disabled={type === null} />
      </Flex>
    </form>
  );
}

/** A settings form's end: Cancel closes the dialog, Save submits the form. */
function CancelSave({ busy, disabled = false }: { busy: boolean; disabled?: boolean }) {
  return (
    <Flex justify="end" gap="2" mt="2">
      <Dialog.Close>
        <Button type="button" variant="soft" color="gray">
          Cancel
        </Button>
      </Dialog.Close>
      <ActionButton type="submit" busy={busy} disabled={disabled}>
        Save
      </ActionButton>
    </Flex>
  );
}

type PasswordValues = { oldPassword: string; newPassword: string; newPasswordRepeated: string };

function ChangePasswordTab({ onDone }: { onDone: () => void }) {
  const { register, handleSubmit, setError, formState } = useForm<PasswordValues>({
    defaultValues: { oldPassword: '', newPassword: '', newPasswordRepeated: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: valibotResolver<PasswordValues>(changePasswordSchema),
  });
  const { errors, isSubmitting } = formState;
  const captcha = useCaptcha();

  const onSubmit = async (values: PasswordValues) => {
    try {
      await changePassword({ ...values, captchaResponse: await captcha.getCaptchaResponse() });
      toast.success(MSG.passwordChanged);
      onDone();
    } catch (err) {
      if (errorCode(err) === 'old_password_invalid') {
        setError('oldPassword', { type: 'server', message: MSG.oldPasswordInvalid }, { shouldFocus: true });
        return;
      }
      toast.error(isCaptchaFailure(err) ? MSG.captchaFailed : messageFromError((err as { data?: unknown }).data));
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="settings-form">
      <Flex direction="column" gap="3" mt="4" maxWidth="28rem">
        <PasswordField label="Old password" autoComplete="current-password" required error={errors.oldPassword?.message} {...register('oldPassword')} />
        <PasswordField label="New password" autoComplete="new-password" required error={errors.newPassword?.message} {...register('newPassword')} />
        <PasswordField
          label="Repeat new password"
          autoComplete="new-password"
          required
          error={errors.newPasswordRepeated?.message}
          {...register('newPasswordRepeated')}
        />
        <CancelSave busy={isSubmitting} />
      </Flex>
    </form>
  );
}
