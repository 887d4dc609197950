// Add / edit a person (spec document 1 §2 "Person form", §4 person edit, §5, §7, §8).
// Add when the tab has no userId param, edit otherwise.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Callout, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { useTab } from '../../workspace/tab-context';
import { useCan, userIdAtom } from '../../state/session';
import { errorMessage, placeFieldErrors } from '../../api/query-client';
import { ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { isValidId, normaliseId } from '../../../shared/codes';
import { ASSIGNABLE_ROLES, P, ROLE, ROLE_IDS, ROLE_LABELS, type RoleName } from '../../../shared/permissions';
import { dictionariesQuery } from '../../api/reference';
import { useRecordHistory } from '../../api/admin';
import type { PersonDetails } from '../../../shared/schemas/persons';
import type { DictionariesDto } from '../../../shared/schemas/reference';
import { createPerson, patchPersonInCache, personDetailQuery, personKeys, rolesFromIds, unlockPerson, updatePersonIdentity } from './api';
import { personFormSchema, superAdminRule, type PersonFormValues } from './person-form-schema';
import { valibotResolver } from '../../ui/valibot-resolver';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import '../../ui/data-table/list-widgets.css';
import { LoginMethodCard } from './login-method-card';
import { HistoryPanel } from '../../ui/history-panel';
import { ActionButton } from '../../ui/action-button';
import { adminKeys } from '../../api/admin';
import { useRecordLive } from '../../api/record-live';
import { mayReloadTab } from '../../workspace/actions';
import { RecordLiveBar } from '../../ui/record-live-bar';

export function PersonFormPage() {
  const { params, setTitle, tabId } = useTab();
  const userId = params.userId;
  const editing = userId !== undefined;
  const validId = editing && isValidId(userId);
  const detail = useQuery({ ...personDetailQuery(userId ?? ''), enabled: validId });
  const dict = useQuery(dictionariesQuery()).data;

  const person = detail.data?.Person;
  // Others at work on this person: a change raises the reload bar; Reload loads the person again
  // and starts the form afresh (after asking, when it has unsaved changes).
  const qc = useQueryClient();
  const others = useRecordLive('person', person?.Id);
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    if (!person || !(await mayReloadTab(tabId))) return;
    others.clear();
    void qc.invalidateQueries({ queryKey: adminKeys.audit() });
    await qc.refetchQueries({ queryKey: personKeys.detail(normaliseId(person.Id)) });
    setGeneration((g) => g + 1);
  };
  useEffect(() => {
    if (!editing) setTitle(MSG.personsAddTitle);
    else if (person) setTitle(MSG.personsEditTitle(person.FirstName, person.LastName));
    else setTitle(ROUTES.personEdit.title);
  }, [editing, person, setTitle]);

  if (editing) {
    // Spec §5: queries for a person run only with a valid id; §8: a missing person is 'User not found.'
    if (!validId) return <PageMessage message={MSG.userNotFound} />;
    if (detail.isPending) return <PageLoading />;
    if (detail.isError) return <PageMessage message={errorMessage(detail.error)} />;
  }
  return (
    <PersonForm
      key={`${userId ?? 'new'}:${generation}`}
      detail={editing ? detail.data : undefined}
      dict={dict}
      liveBar={editing && <RecordLiveBar changedBy={others.changedBy} present={others.present} onReload={() => void reload()} />}
    />
  );
}

type RoleOption = { name: RoleName; id: string; label: string };

/** Server field keys (Content.Errors) → form fields. */
const SERVER_FIELDS: Record<string, keyof PersonFormValues> = {
  'person.firstName': 'firstName',
  'person.lastName': 'lastName',
  'person.emailAddress': 'email',
  'person.roleIds': 'roles',
};

function PersonForm({ detail, dict, liveBar }: { detail?: PersonDetails; dict?: DictionariesDto; liveBar?: ReactNode }) {
  const tab = useTab();
  const { setDirty } = tab;
  const can = useCan();
  const qc = useQueryClient();
  const me = useAtomValue(userIdAtom);
  const person = detail?.Person;
  const editing = !!person;
  const history = useRecordHistory('person', person?.Id ?? '');

  const roleId = (name: RoleName) => dict?.Roles?.[name]?.Id ?? ROLE_IDS[name];
  const options: RoleOption[] = ASSIGNABLE_ROLES.map((name) => ({ name, id: roleId(name), label: ROLE_LABELS[name] }));
  const optionIds = new Set(options.map((o) => o.id));
  // Roles the form does not offer (the portal user role) stay as they are: shown fixed, sent back unchanged.
  const fixedRoles = (person?.Roles ?? []).filter((r) => !optionIds.has(r.Id));
  const personRoleIds = new Set((person?.Roles ?? []).map((r) => r.Id));

  const superAdminId = roleId(ROLE.SuperAdmin);
  const self = editing && !!me && normaliseId(me) === normaliseId(person.Id);
  const hadSuperAdmin = personRoleIds.has(superAdminId);

  const defaultValues: PersonFormValues = {
    firstName: person?.FirstName ?? '',
    lastName: person?.LastName ?? '',
    email: person?.Contact.EmailAddress ?? '',
    roles: options.filter((o) => personRoleIds.has(o.id)).map((o) => o.id),
  };
  const resolver = useMemo(
    () => valibotResolver<PersonFormValues>(personFormSchema({ editing }), { extra: superAdminRule({ self, hadSuperAdmin, superAdminId }) }),
    [editing, self, hadSuperAdmin, superAdminId],
  );
  const form = useForm<PersonFormValues>({ defaultValues, resolver, mode: 'onTouched', reValidateMode: 'onChange' });
  const { register, handleSubmit, formState, setValue, watch, setError, reset } = form;
  const { errors, isDirty, isValid } = formState;
  const roles = watch('roles');

  useEffect(() => {
    setDirty(isDirty);
  }, [isDirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);

  const [serverError, setServerError] = useState<string | null>(null);
  // One error shows once: on its field when the server names one, otherwise above the form (no toast).
  const fail = (err: unknown) => {
    setServerError(placeFieldErrors(err, (key) => SERVER_FIELDS[key], setError));
  };

  const save = useMutation({
    mutationFn: async (values: PersonFormValues) => {
      const roleIds = [...values.roles, ...fixedRoles.map((r) => r.Id)];
      const fields = { firstName: values.firstName.trim(), lastName: values.lastName.trim(), roleIds };
      if (person) {
        // Always the etag currently cached (an unlock meanwhile has changed it).
        const cached = qc.getQueryData<PersonDetails>(personKeys.detail(normaliseId(person.Id)));
        const etag = cached?.Etag ?? detail!.Etag;
        const res = await updatePersonIdentity(person.Id, { ...fields, emailAddress: person.Contact.EmailAddress, etag });
        patchPersonInCache(qc, person.Id, { Etag: res.Etag, FirstName: fields.firstName, LastName: fields.lastName, Roles: rolesFromIds(roleIds, dict) });
        return 'updated' as const;
      }
      await createPerson({ ...fields, emailAddress: values.email.trim() });
      await qc.invalidateQueries({ queryKey: personKeys.lists() });
      return 'added' as const;
    },
    onSuccess: (outcome, values) => {
      toast.success(outcome === 'updated' ? MSG.personUpdated : MSG.personAdded, { area: 'persons' });
      reset(values);
      setDirty(false);
      tab.back();
    },
    onError: fail,
  });

  const unlock = useMutation({
    mutationFn: async () => {
      const res = await unlockPerson(person!.Id);
      patchPersonInCache(qc, person!.Id, { Etag: res.Etag, IsLocked: false });
    },
    onSuccess: () => {
      toast.success(MSG.personUnlocked, { area: 'persons' });
      tab.back();
    },
    onError: fail,
  });

  const toggleRole = (id: string, on: boolean) => {
    const next = options.filter((o) => (o.id === id ? on : roles.includes(o.id))).map((o) => o.id);
    setValue('roles', next, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
  };

  const onSubmit = handleSubmit((values) => {
    setServerError(null);
    save.mutate(values);
  });
  const busy = save.isPending || unlock.isPending;
  const selectedLabels = [
    ...options.filter((o) => roles.includes(o.id)).map((o) => o.label),
    ...fixedRoles.map((r) => ROLE_LABELS[r.Name as RoleName] ?? r.Name),
  ];

  return (
    <Flex direction="column" gap="4" p="4" style={{ maxWidth: '40rem' }}>
      <Heading as="h1" size="5">
        {person ? MSG.personsEditTitle(person.FirstName, person.LastName) : MSG.personsAddTitle}
      </Heading>
      {liveBar}
      <Card size="2">
        <form onSubmit={onSubmit} noValidate aria-label={person ? MSG.personsEditTitle(person.FirstName, person.LastName) : MSG.personsAddTitle}>
          <Flex direction="column" gap="4">
            {serverError && (
              <Callout.Root color="red" role="alert">
                <Callout.Text>{serverError}</Callout.Text>
              </Callout.Root>
            )}
            <FormField label={MSG.personsFirstName} required error={errors.firstName?.message}>
              <TextField.Root autoFocus maxLength={100} autoComplete="off" {...register('firstName')} />
            </FormField>
            <FormField label={MSG.personsLastName} required error={errors.lastName?.message}>
              <TextField.Root maxLength={100} autoComplete="off" {...register('lastName')} />
            </FormField>
            <FormField label={MSG.personsEmail} required error={errors.email?.message}>
              {editing ? (
                <TextField.Root type="email" value={person.Contact.EmailAddress} disabled readOnly />
              ) : (
                <TextField.Root type="email" maxLength={254} autoComplete="off" {...register('email')} />
              )}
            </FormField>
            <FormField label={MSG.personsRoles} required group error={errors.roles?.message}>
              {() => (
                <Flex direction="column" gap="2">
                  <Text size="2" color="gray" aria-hidden="true">
                    {selectedLabels.length ? selectedLabels.join(', ') : MSG.rolePlaceholder}
                  </Text>
                  {options.map((o) => (
                    <Text as="label" size="2" key={o.id}>
                      <Flex gap="2" align="center">
                        <input
                          type="checkbox"
                          name="roles"
                          checked={roles.includes(o.id)}
                          onChange={(e) => toggleRole(o.id, e.target.checked)}
                          onBlur={() => form.trigger('roles')}
                        />
                        {o.label}
                      </Flex>
                    </Text>
                  ))}
                  {fixedRoles.map((r) => (
                    <Text as="label" size="2" key={r.Id} color="gray">
                      <Flex gap="2" align="center">
                        <input type="checkbox" checked disabled readOnly />
                        {ROLE_LABELS[r.Name as RoleName] ?? r.Name} (fixed)
                      </Flex>
                    </Text>
                  ))}
                </Flex>
              )}
            </FormField>
            <Flex gap="3" justify="end" wrap="wrap">
              {person?.IsLocked && can(P.UserUnlock) && (
                <ActionButton type="button" variant="soft" color="orange" disabled={busy} onClick={() => unlock.mutate()} style={{ marginInlineEnd: 'auto' }}>
                  {MSG.personsUnlock}
                </ActionButton>
              )}
              <ActionButton type="button" variant="soft" color="gray" disabled={busy} onClick={tab.back}>
                {MSG.uiCancel}
              </ActionButton>
              <ActionButton type="submit" disabled={!isDirty || !isValid || busy} busy={save.isPending}>
                {editing ? MSG.personsSave : MSG.personsAdd}
              </ActionButton>
            </Flex>
          </Flex>
        </form>
      </Card>
      {editing && <LoginMethodCard personId={person.Id} />}
      {editing && <HistoryPanel history={history} />}
    </Flex>
  );
}
