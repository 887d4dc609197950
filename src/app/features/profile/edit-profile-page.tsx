// Edit own profile (spec document 1 §2 "Edit own profile page", §3, §5 "Own profile", §7, §8):
// General information (First Name, Last Name, both required) and Phone numbers (Personal, Work,
// Home, Office: each a country picker plus the number, and a Primary radio). Save is enabled only
// when the form is changed and valid; leaving with changes asks MSG.unsavedChanges (the tab's
// dirty flag). A save updates the cached profile with the new etag and the name in the top bar.
import { useEffect, useMemo, useState } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { Callout, Card, Flex, Heading, Radio, Spinner, Text, TextField } from '@radix-ui/themes';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { useTab } from '../../workspace/tab-context';
import { currentUserAtom } from '../../state/session';
import { errorMessage, errorStatus } from '../../api/query-client';
import { getUserInfo } from '../../api/auth';
import { ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { NAME_MAX } from '../../../shared/schemas/persons';
import { dictionariesQuery } from '../../api/reference';
import { ownProfileQuery, patchOwnProfile, profileKeys, updateOwnProfile, type OwnProfile, type OwnProfileUpdate } from './api';
import { CountryPicker } from './country-picker';
import {
  PHONE_FIELDS,
  PHONE_FIELD_LABEL,
  dialCodeOf,
  examplePlaceholder,
  fallbackCountries,
  fieldOfType,
  sortCountries,
  type Country,
  type PhoneField,
} from './phone';
import { countryField, phonePayload, profileFormSchema, valuesFromPerson, type ProfileFormValues } from './profile-form-schema';
import { valibotResolver } from '../../ui/valibot-resolver';
import { PageMessage } from '../../workspace/page-message';
import { PROFILE_TEXT } from './text';
import './profile.css';
import { ActionButton } from '../../ui/action-button';

const TOAST = { area: 'persons' } as const;

export function EditProfilePage() {
  const { setTitle } = useTab();
  useEffect(() => {
    setTitle(ROUTES.editOwnProfile.title);
  }, [setTitle]);
  const profile = useQuery(ownProfileQuery());
  const dict = useQuery(dictionariesQuery());

  // The dictionaries' countries; if they cannot be loaded, the same list built in (the page stays usable).
  const listed = dict.data?.Countries;
  const countries = useMemo<Country[] | undefined>(() => {
    if (listed?.length) return sortCountries(listed);
    return dict.isError || dict.isSuccess ? fallbackCountries() : undefined;
  }, [listed, dict.isError, dict.isSuccess]);

  if (profile.isError) return <PageMessage message={errorMessage(profile.error)} />;
  if (profile.isPending || !countries) {
    return (
      <Flex p="5" gap="2" align="center" role="status">
        <Spinner /> <Text>{PROFILE_TEXT.loading}</Text>
      </Flex>
    );
  }
  return <ProfileForm profile={profile.data} countries={countries} />;
}

type ServerProblem = { message: string; details: string[]; conflict: boolean };
type FieldErrorsBody = { data?: { Content?: { Errors?: Record<string, string> } } } | null;

function ProfileForm({ profile, countries }: { profile: OwnProfile; countries: Country[] }) {
  const tab = useTab();
  const { setDirty } = tab;
  const qc = useQueryClient();
  const setCurrentUser = useSetAtom(currentUserAtom);

  const [defaultValues] = useState(() => valuesFromPerson(profile.Person, countries));
  const resolver = useMemo(() => valibotResolver<ProfileFormValues>(profileFormSchema(countries)), [countries]);
  const form = useForm<ProfileFormValues>({ defaultValues, resolver, mode: 'onTouched', reValidateMode: 'onChange' });
  const { register, handleSubmit, formState, reset, setError, trigger, control } = form;
  const { errors, isDirty, isValid } = formState;

  useEffect(() => {
    setDirty(isDirty);
  }, [isDirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);

  // Stored numbers that are not valid show their message at once (Save would stay disabled otherwise, unexplained).
  useEffect(() => {
    const filled = PHONE_FIELDS.filter((f) => defaultValues[f]);
    if (filled.length) void trigger(filled);
  }, [defaultValues, trigger]);

  const [problem, setProblem] = useState<ServerProblem | null>(null);

  // One error shows once: in the form (the callout, the fields' own messages on the fields), not also as a toast.
  const fail = (err: unknown, values: ProfileFormValues) => {
    const status = errorStatus(err);
    if (status === 400) {
      // §5: an invalid profile gives 'Profile can not be updated!'; the server's field messages go to their fields.
      const sent = phonePayload(values, countries);
      const details: string[] = [];
      for (const [key, message] of Object.entries((err as FieldErrorsBody)?.data?.Content?.Errors ?? {})) {
        const field = serverField(key, sent);
        if (field) setError(field, { type: 'server', message });
        else details.push(message);
      }
      setProblem({ message: MSG.profileCannotUpdate, details, conflict: false });
      return;
    }
    // 409: the server's message (stale etag), with a way to load the latest version.
    const message = errorMessage(err);
    setProblem({ message, details: [], conflict: status === 409 });
  };

  const save = useMutation({
    mutationFn: async (values: ProfileFormValues) => {
      const body: OwnProfileUpdate = {
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        phoneNumbers: phonePayload(values, countries),
      };
      // Always the etag currently cached (a reload after a conflict has replaced it).
      const etag = qc.getQueryData<OwnProfile>(profileKeys.own)?.Etag ?? profile.Etag;
      const res = await updateOwnProfile(body, etag);
      return { body, etag: res.Etag };
    },
    onSuccess: ({ body, etag }) => {
      patchOwnProfile(qc, body, etag);
      toast.success(MSG.profileUpdated, TOAST);
      setProblem(null);
      reset(valuesFromPerson({ ...profile.Person, FirstName: body.firstName, LastName: body.lastName, PhoneNumbers: body.phoneNumbers }, countries));
      setDirty(false);
      // The top bar shows the new name at once; then the server's copy of the current user.
      setCurrentUser((u) => (u ? { ...u, firstName: body.firstName, lastName: body.lastName } : u));
      getUserInfo().then(setCurrentUser, () => {});
      // Person screens (list, edit) hold this person's old names and etag.
      void qc.invalidateQueries({ queryKey: ['persons'] });
    },
    onError: (err, values) => fail(err, values),
  });

  const reload = useMutation({
    mutationFn: () => qc.fetchQuery({ ...ownProfileQuery(), staleTime: 0 }),
    onSuccess: (fresh) => {
      setProblem(null);
      reset(valuesFromPerson(fresh.Person, countries));
    },
    onError: (err) => toast.error(errorMessage(err), TOAST),
  });

  const onSubmit = handleSubmit((values) => {
    setProblem(null);
    save.mutate(values);
  });
  const busy = save.isPending || reload.isPending;
  const title = ROUTES.editOwnProfile.title;

  return (
    <Flex direction="column" gap="4" p="4" className="profile-page">
      <Heading as="h1" size="5">
        {title}
      </Heading>
      <Card size="2">
        <form onSubmit={onSubmit} noValidate aria-label={title}>
          <Flex direction="column" gap="5">
            {problem && (
              <Callout.Root color="red" role="alert">
                <Callout.Text>{problem.message}</Callout.Text>
                {problem.details.length > 0 && (
                  <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                    {problem.details.map((d) => (
                      <li key={d}>
                        <Text size="2">{d}</Text>
                      </li>
                    ))}
                  </ul>
                )}
                {problem.conflict && (
                  <div>
                    <ActionButton type="button" size="1" variant="soft" color="red" busy={reload.isPending} onClick={() => reload.mutate()}>
                      {PROFILE_TEXT.reload}
                    </ActionButton>
                  </div>
                )}
              </Callout.Root>
            )}

            <section className="profile-section" aria-labelledby="profile-general">
              <Heading as="h2" size="3" id="profile-general">
                {MSG.profileGeneralInformation}
              </Heading>
              <FormField label={MSG.profileFirstName} required error={errors.firstName?.message}>
                <TextField.Root autoFocus maxLength={NAME_MAX} autoComplete="given-name" {...register('firstName')} />
              </FormField>
              <FormField label={MSG.profileLastName} required error={errors.lastName?.message}>
                <TextField.Root maxLength={NAME_MAX} autoComplete="family-name" {...register('lastName')} />
              </FormField>
            </section>

            <section className="profile-section" aria-labelledby="profile-phones">
              <Heading as="h2" size="3" id="profile-phones">
                {MSG.profilePhoneNumbers}
              </Heading>
              {PHONE_FIELDS.map((field) => (
                <PhoneRow
                  key={field}
                  field={field}
                  control={control}
                  countries={countries}
                  error={errors[field]?.message}
                  register={register}
                  revalidate={() => {
                    if (form.getValues(field)) void trigger(field);
                  }}
                />
              ))}
            </section>

            <Flex gap="3" justify="end" wrap="wrap">
              <ActionButton type="button" variant="soft" color="gray" disabled={save.isPending} onClick={tab.back}>
                {MSG.uiCancel}
              </ActionButton>
              <ActionButton type="submit" disabled={!isDirty || !isValid || busy} busy={save.isPending}>
                {MSG.profileSave}
              </ActionButton>
            </Flex>
          </Flex>
        </form>
      </Card>
    </Flex>
  );
}

/** Server field keys → form fields: 'person.firstName', 'person.phoneNumbers.{i}.Number' (i indexes the sent list). */
function serverField(key: string, sent: ReturnType<typeof phonePayload>): keyof ProfileFormValues | undefined {
  if (key === 'person.firstName') return 'firstName';
  if (key === 'person.lastName') return 'lastName';
  const m = /^person\.phoneNumbers\.(\d+)(\.|$)/.exec(key);
  if (m) {
    const entry = sent[Number(m[1])];
    return entry ? fieldOfType(entry.Type) : undefined;
  }
  return undefined;
}

type PhoneRowProps = {
  field: PhoneField;
  control: Control<ProfileFormValues>;
  countries: Country[];
  error?: string;
  register: ReturnType<typeof useForm<ProfileFormValues>>['register'];
  revalidate: () => void;
};

function PhoneRow({ field, control, countries, error, register, revalidate }: PhoneRowProps) {
  const label = PHONE_FIELD_LABEL[field];
  const country = useController({ control, name: countryField(field) });
  const dial = dialCodeOf(country.field.value, countries);
  const example = examplePlaceholder(country.field.value);

  return (
    <FormField label={label} error={error}>
      {(aria) => (
        <div className="profile-phone-row">
          <CountryPicker
            countries={countries}
            value={country.field.value}
            label={label}
            onBlur={country.field.onBlur}
            onChange={(code) => {
              country.field.onChange(code);
              revalidate();
            }}
          />
          <TextField.Root
            {...aria}
            {...register(field)}
            className="profile-phone-input"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            maxLength={40}
            placeholder={example}
          >
            <TextField.Slot>
              <span className="profile-dial" aria-hidden="true">
                {dial ? `+${dial}` : ''}
              </span>
            </TextField.Slot>
          </TextField.Root>
          <Text as="label" size="2" className="profile-primary">
            <Radio value={field} aria-label={PROFILE_TEXT.primaryFor(label)} {...register('primary')} />
            {MSG.profilePrimary}
          </Text>
        </div>
      )}
    </FormField>
  );
}
