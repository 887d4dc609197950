// Create Account and Edit Account (spec document 2 §2, §3 "Customer form fields", §5): one
// react-hook-form + valibot form with an edit flag. A customer account is linked to a CRM account
// (search debounced 600 ms; picking one fills and locks what the CRM holds); an internal account
// locks URN, managers, tier and status. The portal reference exists for migrated accounts only.
// Create runs the duplicates check first ('Account already exists?' → 'Create duplicate account').
// A stale etag on edit (409) says so and offers to reload. Edit Account follows the customer live
// like its other tabs: who else has it open, and the quiet "Changed by NAME — reload" bar.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { valibotResolver } from '../../ui/valibot-resolver';
import { useDebouncedValue } from '../../ui/data-table/use-debounced-value';
import { useTab } from '../../workspace/tab-context';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import { errorMessage, errorStatus, placeFieldErrors } from '../../api/query-client';
import { dictionariesQuery } from '../../api/reference';
import {
  createCustomer,
  crmAccountsQuery,
  customerDetailsQuery,
  customerFiltersQuery,
  customerKeys,
  getCustomerDuplicates,
  updateCustomer,
  type CrmAccount,
  type CustomerDetails,
  type CustomerDuplicate,
} from '../../api/customers';
import { getHref, ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { isValidId } from '../../../shared/codes';
import { CRM_DEBOUNCE_MS } from '../../../shared/schemas/customers';
import { normalisePhone, phoneForInput } from '../../../shared/phone';
import {
  administratorOf,
  CRM_REQUIRED,
  customerFormRules,
  customerFormSchema,
  duplicatesQueryOf,
  EMPTY_CUSTOMER_FORM,
  formFieldOfServerKey,
  fromCrmAccount,
  lockedFields,
  showsPortalReference,
  portalReferenceRequired,
  toCustomerPayload,
  type CustomerFormValues,
} from './customer-form-schema';
import { formValuesOf } from './customer-format';
import { CUSTOMER_UI_TEXT } from './text';
import './customers.css';
import { ActionButton } from '../../ui/action-button';
import { useRecordLive } from '../../api/record-live';
import { RecordLiveBar } from '../../ui/record-live-bar';
import { mayReloadTab } from '../../workspace/actions';

export function CustomerFormPage() {
  const { params, setTitle, tabId } = useTab();
  const id = params.customerId;
  const editing = id !== undefined;
  const valid = editing && isValidId(id);
  const details = useQuery({ ...customerDetailsQuery(id ?? ''), enabled: valid });
  const name = details.data?.Name;
  // Others at work on this customer: a change raises the reload bar; Reload loads the customer
  // again (after asking, when the form has unsaved changes) and starts the form afresh.
  const others = useRecordLive('customer', valid && details.data ? id : null);
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    if (!(await mayReloadTab(tabId))) return;
    others.clear();
    await details.refetch();
    setGeneration((g) => g + 1);
  };
  useEffect(() => setTitle(editing ? (name ? `Edit ${name}` : ROUTES.customerAccountEdit.title) : ROUTES.customerCreate.title), [editing, name, setTitle]);
  if (editing) {
    if (!valid) return <PageMessage message={MSG.badUrl} />;
    if (details.isPending) return <PageLoading />;
    if (details.isError) return <PageMessage message={[400, 404].includes(errorStatus(details.error) ?? 0) ? MSG.badUrl : errorMessage(details.error)} />;
  }
  // A new etag (after a reload), or the live bar's Reload, starts the form again from the stored values.
  return (
    <CustomerForm
      key={`${details.data?.Etag ?? 'new'}:${generation}`}
      customer={editing ? details.data : undefined}
      onReload={() => void details.refetch()}
      liveBar={editing && <RecordLiveBar changedBy={others.changedBy} present={others.present} onReload={() => void reload()} />}
    />
  );
}

type Props = { customer?: CustomerDetails; onReload: () => void; liveBar?: ReactNode };

/** The countries to choose from, with the account's stored one even before (or without) the list. */
function countryOptions(countries: readonly { Id: string; Name: string }[], stored: { id: string | null; name: string | null } | null) {
  const options = countries.map((c) => ({ value: c.Id, label: c.Name }));
  if (stored?.id && !options.some((o) => o.value === stored.id)) options.unshift({ value: stored.id, label: stored.name ?? stored.id });
  return options;
}

function CustomerForm({ customer, onReload, liveBar }: Props) {
  const tab = useTab();
  const { setDirty } = tab;
  const qc = useQueryClient();
  const editing = !!customer;
  const ctx = useMemo(() => ({ editing, wasMigrated: customer?.IsMigratedAccount ?? false }), [editing, customer]);
  const resolver = useMemo(() => valibotResolver<CustomerFormValues>(customerFormSchema(), { extra: customerFormRules(ctx) }), [ctx]);
  const form = useForm<CustomerFormValues>({
    defaultValues: customer ? formValuesOf(customer) : EMPTY_CUSTOMER_FORM,
    resolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, formState, watch, setValue, setError, reset } = form;
  const { errors, isDirty } = formState;
  const values = watch();
  const locked = lockedFields(values);
  const filters = useQuery(customerFiltersQuery()).data;
  const countries = useQuery(dictionariesQuery()).data?.Countries ?? [];

  useEffect(() => setDirty(isDirty), [isDirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);

  const [serverError, setServerError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [duplicates, setDuplicates] = useState<{ list: CustomerDuplicate[]; values: CustomerFormValues } | null>(null);

  const fail = (err: unknown) => {
    if (errorStatus(err) === 409) {
      setStale(true);
      setServerError(null);
      return;
    }
    setServerError(placeFieldErrors(err, formFieldOfServerKey, setError));
  };

  const save = useMutation({
    mutationFn: async (v: CustomerFormValues) => {
      const payload = toCustomerPayload(v);
      if (customer) {
        await updateCustomer(customer.Id, payload, customer.Etag);
        return customer.Id;
      }
      const created = await createCustomer({ ...payload, administrator: administratorOf(v) });
      return created.Id;
    },
    onSuccess: async (id, v) => {
      toast.success(editing ? MSG.customerUpdated : MSG.customerCreated);
      reset(v);
      setDirty(false);
      await qc.invalidateQueries({ queryKey: customerKeys.lists() });
      await qc.invalidateQueries({ queryKey: customerKeys.customer(id) });
      tab.navigate(getHref('customerAccount', { customerId: id }));
    },
    onError: fail,
  });

  const checking = useMutation({
    mutationFn: (v: CustomerFormValues) => getCustomerDuplicates(duplicatesQueryOf(v)),
    onSuccess: (res, v) => {
      if (res.Duplicates.length) setDuplicates({ list: res.Duplicates, values: v });
      else save.mutate(v);
    },
    onError: fail,
  });

  const onSubmit = handleSubmit((v) => {
    setServerError(null);
    setStale(false);
    // Spec §5: the duplicates check runs before create.
    if (editing) save.mutate(v);
    else checking.mutate(v);
  });
  const busy = save.isPending || checking.isPending;
  const title = editing ? `Edit ${customer.Name}` : ROUTES.customerCreate.title;

  // Locked fields are read-only, not disabled: react-hook-form drops the values of disabled inputs.
  const text = (name: keyof CustomerFormValues, label: string, opts: { required?: boolean; max?: number; autoFocus?: boolean; readOnly?: boolean } = {}) => {
    const readOnly = opts.readOnly ?? locked.has(name);
    // The missing CRM account is said once, by the CRM search that fixes it.
    const error = errors[name]?.message;
    return (
      <FormField label={label} required={opts.required} error={error === CRM_REQUIRED ? undefined : error}>
        <TextField.Root
          maxLength={opts.max ?? 200}
          autoComplete="off"
          autoFocus={opts.autoFocus}
          readOnly={readOnly}
          variant={readOnly ? 'soft' : undefined}
          color={readOnly ? 'gray' : undefined}
          // A phone number is shown as read in the account's country once the field is left
          // ('447700900123' → '07700 900123'); one that cannot be read stays as typed, with its message.
          {...register(
            name,
            name === 'phoneNumber'
              ? {
                  onBlur: (e: React.FocusEvent<HTMLInputElement>) => {
                    const shown = phoneForInput(normalisePhone(e.target.value, values.country) ?? e.target.value, values.country);
                    if (shown !== e.target.value) setValue('phoneNumber', shown, { shouldDirty: true });
                  },
                }
              : undefined,
          )}
        />
      </FormField>
    );
  };
  const select = (name: keyof CustomerFormValues, label: string, options: { value: string; label: string }[], required?: boolean) => (
    <FormField label={label} required={required} error={errors[name]?.message}>
      {locked.has(name) ? (
        <TextField.Root readOnly variant="soft" color="gray" value={options.find((o) => o.value === values[name])?.label ?? ''} />
      ) : (
        // Controlled: the stored value shows even when its options arrive after the form (the
        // country list loads on its own); an uncontrolled select would have fallen back to 'Select…'.
        <select className="cu-select" {...register(name)} value={String(values[name] ?? '')}>
          <option value="">Select…</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );

  return (
    <Flex direction="column" gap="4" p="4" style={{ maxWidth: '64rem' }}>
      <Heading as="h1" size="5">
        {title}
      </Heading>
      {liveBar}
      <form onSubmit={onSubmit} noValidate aria-label={title}>
        <Flex direction="column" gap="4">
          {stale && (
            <Callout.Root color="orange" role="alert">
              <Callout.Text>
                {MSG.staleEtag}{' '}
                <Button type="button" size="1" variant="soft" onClick={onReload}>
                  {CUSTOMER_UI_TEXT.reload}
                </Button>
              </Callout.Text>
            </Callout.Root>
          )}
          {serverError && (
            <Callout.Root color="red" role="alert">
              <Callout.Text>{serverError}</Callout.Text>
            </Callout.Root>
          )}
          <Card size="2">
            <Flex direction="column" gap="3">
              <FormField label="Account type" required group>
                {() =>
                  editing ? (
                    <Text size="2">{values.accountType === 'customer' ? CUSTOMER_UI_TEXT.accountTypeCustomer : CUSTOMER_UI_TEXT.accountTypeInternal}</Text>
                  ) : (
                    <Flex gap="4" wrap="wrap">
                      {(['customer', 'internal'] as const).map((t) => (
                        <Text as="label" size="2" key={t}>
                          <Flex gap="2" align="center">
                            <input type="radio" value={t} {...register('accountType', { onChange: () => onTypeChange(form) })} />
                            {t === 'customer' ? CUSTOMER_UI_TEXT.accountTypeCustomer : CUSTOMER_UI_TEXT.accountTypeInternal}
                          </Flex>
                        </Text>
                      ))}
                    </Flex>
                  )
                }
              </FormField>
              {values.accountType === 'customer' && (
                <CrmSearch
                  linked={values.salesforceId ? values.accountName : null}
                  error={errors.salesforceURN?.message}
                  onPick={(a) => pickCrm(form, a)}
                  onUnlink={() => unlinkCrm(form)}
                />
              )}
            </Flex>
          </Card>
          <Card size="2">
            <div className="cu-form-grid">
              {text('accountName', 'Account name', { required: true, autoFocus: values.accountType === 'internal' || editing })}
              {text('salesforceURN', 'Salesforce URN', { max: 64 })}
              {text('phoneNumber', 'Phone number', { max: 32 })}
              {text('accountManager', 'Account manager')}
              {text('successManager', 'Customer success manager')}
              {select(
                'successTier',
                'Tier',
                (filters?.Tiers ?? []).map((t) => ({ value: String(t.Value), label: t.Name })),
              )}
              {select(
                'accountStatus',
                'Status',
                (filters?.Statuses ?? []).map((t) => ({ value: String(t.Value), label: t.Name })),
                values.accountType === 'customer',
              )}
              <FormField label="Migrated account?" required group error={errors.isMigratedAccount?.message}>
                {() => (
                  <Flex gap="4">
                    {(['yes', 'no'] as const).map((x) => (
                      <Text as="label" size="2" key={x}>
                        <Flex gap="2" align="center">
                          <input type="radio" value={x} {...register('isMigratedAccount')} />
                          {x === 'yes' ? 'Yes' : 'No'}
                        </Flex>
                      </Text>
                    ))}
                  </Flex>
                )}
              </FormField>
              {/* Spec §4: the portal reference is enabled only for migrated accounts. */}
              <FormField label="Portal reference" required={portalReferenceRequired(values, ctx)} error={errors.portalReferenceNumber?.message}>
                <TextField.Root
                  maxLength={18}
                  inputMode="numeric"
                  autoComplete="off"
                  readOnly={!showsPortalReference(values)}
                  aria-disabled={!showsPortalReference(values) || undefined}
                  variant={showsPortalReference(values) ? undefined : 'soft'}
                  color={showsPortalReference(values) ? undefined : 'gray'}
                  {...register('portalReferenceNumber')}
                />
              </FormField>
            </div>
          </Card>
          <Card size="2">
            <Heading as="h2" size="3" mb="3">
              Address
            </Heading>
            <div className="cu-form-grid">
              {text('addressLine1', 'Address line 1')}
              {text('addressLine2', 'Address line 2')}
              {text('city', 'City', { max: 100 })}
              {text('county', 'County', { max: 100 })}
              {text('postCode', 'Post code', { max: 20 })}
              {select('country', 'Country', countryOptions(countries, customer ? { id: customer.Address.CountryId, name: customer.Address.Country } : null))}
            </div>
          </Card>
          {!editing && (
            <Card size="2">
              <Heading as="h2" size="3" mb="3">
                {CUSTOMER_UI_TEXT.firstAdministrator}
              </Heading>
              <div className="cu-form-grid">
                {text('firstName', 'First Name', { max: 100 })}
                {text('lastName', 'Last Name', { max: 100 })}
                {text('email', 'Email', { max: 254 })}
              </div>
            </Card>
          )}
          <Flex gap="3" justify="end">
            <ActionButton type="button" variant="soft" color="gray" disabled={busy} onClick={tab.back}>
              {MSG.uiCancel}
            </ActionButton>
            <ActionButton type="submit" disabled={editing && !isDirty} busy={busy}>
              {editing ? 'Save' : 'Create Account'}
            </ActionButton>
          </Flex>
        </Flex>
      </form>
      {duplicates && (
        <DuplicatesDialog
          list={duplicates.list}
          onCancel={() => setDuplicates(null)}
          onConfirm={() => {
            const v = duplicates.values;
            setDuplicates(null);
            save.mutate(v);
          }}
        />
      )}
    </Flex>
  );
}

const FILLED: (keyof CustomerFormValues)[] = [
  'salesforceId',
  'accountName',
  'salesforceURN',
  'addressLine1',
  'addressLine2',
  'county',
  'city',
  'postCode',
  'country',
  'phoneNumber',
  'accountManager',
  'successManager',
  'successTier',
];

function pickCrm(form: UseFormReturn<CustomerFormValues>, a: CrmAccount) {
  const patch = fromCrmAccount(a);
  for (const k of FILLED) form.setValue(k, patch[k] ?? '', { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  void form.trigger(['accountName', 'salesforceURN']);
}
function unlinkCrm(form: UseFormReturn<CustomerFormValues>) {
  form.setValue('salesforceId', '', { shouldDirty: true });
  form.setValue('salesforceURN', '', { shouldDirty: true });
}
/** Internal accounts have no URN, managers, tier or status: switching clears them. */
function onTypeChange(form: UseFormReturn<CustomerFormValues>) {
  if (form.getValues('accountType') !== 'internal') return;
  for (const k of ['salesforceId', 'salesforceURN', 'accountManager', 'successManager', 'successTier', 'accountStatus'] as const)
    form.setValue(k, '', { shouldDirty: true });
  form.clearErrors(['salesforceURN', 'accountStatus']);
}

function CrmSearch({ linked, error, onPick, onUnlink }: { linked: string | null; error?: string; onPick: (a: CrmAccount) => void; onUnlink: () => void }) {
  const [text, setText] = useState('');
  // Spec §9: the CRM account search is debounced 600 ms.
  const query = useDebouncedValue(text.trim(), CRM_DEBOUNCE_MS);
  const results = useQuery({ ...crmAccountsQuery(query), enabled: !linked && query.length > 0 });
  if (linked)
    return (
      <Flex gap="3" align="center" wrap="wrap">
        <Text size="2">
          Linked CRM account: <strong>{linked}</strong>
        </Text>
        <Button type="button" size="1" variant="soft" color="gray" onClick={onUnlink}>
          {CUSTOMER_UI_TEXT.unlinkCrm}
        </Button>
      </Flex>
    );
  const list = results.data ?? [];
  return (
    <FormField label={CUSTOMER_UI_TEXT.crmSearch} required error={error}>
      {(aria) => (
        <Flex direction="column" gap="2">
          <TextField.Root
            {...aria}
            type="search"
            autoFocus
            autoComplete="off"
            maxLength={100}
            placeholder={CUSTOMER_UI_TEXT.crmSearchPlaceholder}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                (e.currentTarget.closest('.form-field')?.querySelector('[data-crm-result]') as HTMLElement | null)?.focus();
              }
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
          {results.isFetching && (
            <Text size="1" color="gray" role="status">
              Searching…
            </Text>
          )}
          {query && !results.isFetching && results.isSuccess && list.length === 0 && (
            <Text size="1" color="gray" role="status">
              {CUSTOMER_UI_TEXT.crmNoResults}
            </Text>
          )}
          {results.isError && (
            <Text size="1" color="red" role="alert">
              {errorMessage(results.error)}
            </Text>
          )}
          {list.length > 0 && (
            <ul aria-label="CRM accounts" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 }}>
              {list.map((a) => (
                <li key={a.id}>
                  <Button
                    type="button"
                    variant="ghost"
                    data-crm-result
                    style={{ width: '100%', justifyContent: 'flex-start' }}
                    onClick={() => onPick(a)}
                    onKeyDown={(e) => {
                      const li = e.currentTarget.closest('li');
                      if (e.key === 'ArrowDown') (li?.nextElementSibling?.querySelector('button') as HTMLElement | null)?.focus();
                      if (e.key === 'ArrowUp') (li?.previousElementSibling?.querySelector('button') as HTMLElement | null)?.focus();
                    }}
                  >
                    {a.name}
                    {a.urn ? ` — ${a.urn}` : ''}
                    {a.city ? `, ${a.city}` : ''}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </Flex>
      )}
    </FormField>
  );
}

function DuplicatesDialog({ list, onCancel, onConfirm }: { list: CustomerDuplicate[]; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Content maxWidth="40rem" aria-describedby={undefined}>
        <Dialog.Title>{CUSTOMER_UI_TEXT.duplicatesTitle}</Dialog.Title>
        <table className="cu-table" aria-label="Existing accounts">
          <thead>
            <tr>
              <th>Name</th>
              <th>URN</th>
              <th>Portal reference</th>
              <th>Link</th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr key={d.Id}>
                <td>{d.Name}</td>
                <td>{d.SalesforceUrn ?? '-'}</td>
                <td>{d.PortalId ?? '-'}</td>
                <td>
                  <a href={getHref('customerAccount', { customerId: d.Id })} target="_blank" rel="noreferrer">
                    Open
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Flex gap="3" mt="4" justify="end">
          <Dialog.Close>
            <Button variant="soft" color="gray" autoFocus>
              {MSG.uiCancel}
            </Button>
          </Dialog.Close>
          <Button color="orange" onClick={onConfirm}>
            {CUSTOMER_UI_TEXT.createDuplicate}
          </Button>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
