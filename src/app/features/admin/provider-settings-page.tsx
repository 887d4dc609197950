// Provider Settings: the features (the spec's twelve and ours) with what each switches, the global
// 2FA mode (enforced removes 'Disabled' from everyone's 2FA choice), and the company e-mail
// domains that require single sign-on, each with its customer. Provider admins change them (each
// change saves at once and is audited); read-only admins see the same screen with every control
// disabled.
import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Flex, Heading, Select, Text } from '@radix-ui/themes';
import { SettingSwitch } from '../../ui/setting-switch';
import { Table } from '../../ui/table';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { toast } from '../../ui/toast';
import { confirm } from '../../ui/confirm-dialog';
import { useDebouncedValue } from '../../ui/data-table/use-debounced-value';
import { errorMessage } from '../../api/query-client';
import { customerListQuery } from '../../api/customers';
import { addSsoDomain, adminSettingsQuery, afterSettingsChange, removeSsoDomain, setFeature, setTwoFactorMode } from '../../api/admin';
import { ADMIN_TEXT, PAGE_TITLES } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import { FleetThresholdsCard } from './fleet-thresholds-card';
import { TWO_FACTOR_MODE, type FeatureName } from '../../../shared/schemas/admin';
import { ActionButton } from '../../ui/action-button';
import { keepRowFocus } from '../../ui/row-focus';

const NO_CUSTOMER = 'none';

export function ProviderSettingsPage() {
  const { setTitle } = useTab();
  useEffect(() => setTitle(PAGE_TITLES.providerSettings), [setTitle]);
  const can = useCan();
  const editable = can(P.SettingsManage);
  const qc = useQueryClient();
  const settings = useQuery(adminSettingsQuery());

  const change = useMutation({
    mutationFn: (run: () => Promise<{ Content: { Message: string } }>) => run(),
    onSuccess: async (res) => {
      toast.success(res.Content.Message);
      await afterSettingsChange(qc);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  if (settings.isPending) return <Text m="4">Loading…</Text>;
  if (settings.isError)
    return (
      <Text color="red" m="4">
        {errorMessage(settings.error)}
      </Text>
    );
  const s = settings.data;
  const enforced = s.TwoFactorAuthenticationMode === TWO_FACTOR_MODE.enforced;

  return (
    <Flex direction="column" gap="4" p="4" style={{ height: '100%', overflow: 'auto', boxSizing: 'border-box' }}>
      <Heading as="h1" size="5">
        {PAGE_TITLES.providerSettings}
      </Heading>
      {!editable && (
        <Text size="2" color="gray" data-testid="settings-read-only">
          {ADMIN_TEXT.readOnly}
        </Text>
      )}
      <Flex gap="4" wrap="wrap" align="start">
        <Card size="2" style={{ flex: '1 1 30rem', maxWidth: '48rem' }}>
          <Heading as="h2" size="3" mb="3">
            Features
          </Heading>
          <Flex direction="column" gap="3" role="group" aria-label="Features">
            {s.Features.map((f) => (
              <Text as="label" size="2" key={f.FeatureName}>
                <Flex gap="3" align="start">
                  <SettingSwitch
                    checked={f.IsEnabled}
                    readOnly={!editable}
                    busy={change.isPending}
                    aria-label={f.FeatureName}
                    onCheckedChange={(on) => change.mutate(() => setFeature(f.FeatureName as FeatureName, on))}
                  />
                  <Flex direction="column">
                    <Text weight="medium">{f.FeatureName}</Text>
                    <Text color="gray" size="1">
                      {f.Description}
                    </Text>
                  </Flex>
                </Flex>
              </Text>
            ))}
          </Flex>
        </Card>
        <Flex direction="column" gap="4" style={{ flex: '1 1 26rem', maxWidth: '40rem' }}>
          <Card size="2">
            <Heading as="h2" size="3" mb="3">
              Global settings
            </Heading>
            <Text as="label" size="2">
              <Flex gap="3" align="start">
                <SettingSwitch
                  checked={enforced}
                  readOnly={!editable}
                  busy={change.isPending}
                  aria-label="Require a second factor"
                  onCheckedChange={(on) => change.mutate(() => setTwoFactorMode(on ? 1 : 0))}
                />
                <Flex direction="column">
                  <Text weight="medium">Require a second factor (TwoFactorAuthentication.Mode)</Text>
                  <Text color="gray" size="1">
                    On: 'Disabled' leaves every user's Two-Factor Authentication choice; e-mail or SMS codes are required at the next sign-in.
                  </Text>
                </Flex>
              </Flex>
            </Text>
          </Card>
          <SsoDomains editable={editable} domains={s.SsoDomains} busy={change.isPending} onChange={(run) => change.mutateAsync(run)} />
          <FleetThresholdsCard editable={editable} />
        </Flex>
      </Flex>
    </Flex>
  );
}

type Domain = { Domain: string; CustomerId: string | null; CustomerName: string | null };

function SsoDomains({
  editable,
  domains,
  busy,
  onChange,
}: {
  editable: boolean;
  domains: Domain[];
  busy: boolean;
  onChange: (run: () => Promise<{ Content: { Message: string } }>) => Promise<unknown>;
}) {
  const [domain, setDomain] = useState('');
  const [customerSearch, setCustomerSearch] = useState('');
  const [customerId, setCustomerId] = useState(NO_CUSTOMER);
  const term = useDebouncedValue(customerSearch.trim(), 300);
  const customers = useQuery({ ...customerListQuery({ page: 1, pageSize: 10, searchValue: term }), enabled: editable && term.length > 1 });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!domain.trim()) return;
    try {
      await onChange(() => addSsoDomain(domain.trim(), customerId === NO_CUSTOMER ? null : customerId));
      setDomain('');
      setCustomerSearch('');
      setCustomerId(NO_CUSTOMER);
    } catch {
      // the mutation's toast says why
    }
  };
  const remove = async (d: string, button: HTMLElement) => {
    const restoreFocus = keepRowFocus(button);
    const ok = await confirm({
      title: 'Remove domain',
      message: `Persons of ${d} will sign in with their passwords again.`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (ok) await onChange(() => removeSsoDomain(d)).then(restoreFocus, () => {});
  };

  return (
    <Card size="2">
      <Heading as="h2" size="3" mb="1">
        Single sign-on domains
      </Heading>
      <Text as="p" size="1" color="gray" mb="3">
        Persons whose e-mail is at one of these domains must sign in with single sign-on; their passwords are refused.
      </Text>
      <Table.Root size="1" aria-label="Single sign-on domains">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>Domain</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>Customer</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell width="1%" />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {domains.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={3}>
                <Text color="gray">No domain requires single sign-on.</Text>
              </Table.Cell>
            </Table.Row>
          )}
          {domains.map((d) => (
            <Table.Row key={d.Domain}>
              <Table.Cell>{d.Domain}</Table.Cell>
              <Table.Cell>{d.CustomerName ?? 'Provider staff'}</Table.Cell>
              <Table.Cell>
                {editable && (
                  <ActionButton
                    size="1"
                    variant="soft"
                    color="red"
                    disabled={busy}
                    onClick={(e) => void remove(d.Domain, e.currentTarget)}
                    aria-label={`Remove ${d.Domain}`}
                  >
                    Remove
                  </ActionButton>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {editable && (
        <form onSubmit={(e) => void submit(e)} aria-label="Add a single sign-on domain">
          <Flex direction="column" gap="2" mt="3">
            <Flex gap="2" wrap="wrap" align="end">
              <TextInput label="Domain" placeholder="example.com" value={domain} maxLength={253} onChange={setDomain} />
              <TextInput label="Find customer" placeholder="Customer name" value={customerSearch} maxLength={255} onChange={setCustomerSearch} />
            </Flex>
            <Flex gap="2" align="center" wrap="wrap">
              <Select.Root value={customerId} onValueChange={setCustomerId}>
                <Select.Trigger aria-label="Customer" style={{ minWidth: '16rem' }} />
                <Select.Content>
                  <Select.Item value={NO_CUSTOMER}>Provider staff (no customer)</Select.Item>
                  {(customers.data?.customers ?? []).map((c) => (
                    <Select.Item key={c.id} value={c.id}>
                      {c.name}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Root>
              <ActionButton type="submit" disabled={busy || !domain.trim()}>
                Add domain
              </ActionButton>
            </Flex>
          </Flex>
        </form>
      )}
    </Card>
  );
}

/** A labelled text field of the add-domain form. */
function TextInput(p: { label: string; placeholder: string; value: string; maxLength: number; onChange: (value: string) => void }) {
  return (
    <label style={{ flex: '1 1 12rem' }}>
      <Text size="1">{p.label}</Text>
      <input
        className="lw-input"
        style={{ width: '100%' }}
        placeholder={p.placeholder}
        value={p.value}
        maxLength={p.maxLength}
        onChange={(e) => p.onChange(e.target.value)}
      />
    </label>
  );
}
