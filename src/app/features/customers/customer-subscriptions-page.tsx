// Customer view, Subscriptions tab (spec document 2 §2 "Customer subscriptions tab", §4 "Disable
// SOS" and "Saving subscriptions", §5, §8): Phone Subscriptions with the app features, Device
// Subscriptions ('Show all', highlights, 'No active device subscriptions.'), Additional Services,
// 'Save changes'. Saving fetches the current etags first, asks 'Change Device Configuration' when
// a type has more allocated than the entered subscription, and sends the three sections with the
// etags the form was loaded with. When someone saved meanwhile (fresh etags differ, or the server
// answers 409) nothing is overwritten: the user is told and may reload the tab.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { SettingSwitch } from '../../ui/setting-switch';
import { toast } from '../../ui/toast';
import { confirm } from '../../ui/confirm-dialog';
import { useCan } from '../../state/session';
import { useTab } from '../../workspace/tab-context';
import { errorMessage, errorStatus } from '../../api/query-client';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import {
  customerKeys,
  customerSubscriptionsQuery,
  getCustomerSubscriptions,
  updateCustomerSubscriptions,
  type CustomerDetails,
  type CustomerSubscriptions,
} from '../../api/customers';
import { MSG } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import { CustomerView } from './customer-view';
import { PageLoading } from '../../workspace/page-message';
import {
  allQuantities,
  deviceRowTone,
  deviceRowVisible,
  overAllocatedNames,
  phoneRowError,
  subscriptionEtagsChanged,
  trackingIntervalError,
  trackingIntervalOut,
} from './subscription-rules';
import { CUSTOMER_UI_TEXT } from './text';
import { SwitchState } from '../../ui/switch-state';
import { ActionButton } from '../../ui/action-button';
import { TableHead } from '../../ui/table-head';

type Features = CustomerSubscriptions['AppSubscriptions']['AppFeatures'];
type Services = CustomerSubscriptions['AdditionalServices'];
const CONFLICT = 'conflict' as const;

type Draft = {
  app: Record<number, string>;
  devices: Record<number, string>;
  features: Omit<Features, 'TrackingInterval'>;
  interval: string;
  services: Services;
};

const APP_LABEL: Record<string, string> = { Pro: `${MSG.productName} Pro`, SOS: `${MSG.productName} SOS`, Mobile: 'Standard Mobile' };
const FEATURE_LABELS: [keyof Draft['features'], string][] = [
  ['IsTrackingEnabled', 'Tracking'],
  ['IsFallDetectionEnabled', 'Fall Detection'],
  ['IsWelfareCheckEnabled', 'Welfare Checks'],
  ['IsTravelSafeEnabled', 'Travelsafe'],
  ['IsSureCamEnabled', 'SureCam'],
];
const SERVICE_LABELS: [keyof Services, string][] = [
  ['NationalResponse', 'National Response'],
  ['GlobalResponse', 'Global Response'],
  ['Eurowatch', 'Eurowatch'],
  ['TranslationServices', 'Translation Services'],
  ['CheckInTimers', 'Check In Timers'],
  ['TeamBroadcast', 'Team Broadcast'],
];

function draftOf(s: CustomerSubscriptions): Draft {
  const { TrackingInterval, ...features } = s.AppSubscriptions.AppFeatures;
  return {
    app: Object.fromEntries(s.AppSubscriptions.Subscriptions.map((r) => [r.Type.Value, String(r.Purchased)])),
    devices: Object.fromEntries(s.DeviceSubscriptions.Subscriptions.map((r) => [r.Type.Value, String(r.Purchased)])),
    features,
    interval: TrackingInterval ? String(TrackingInterval) : '',
    services: { ...s.AdditionalServices },
  };
}

export function CustomerSubscriptionsPage() {
  return <CustomerView current="customerSubscriptions">{(customer) => <SubscriptionsLoader customer={customer} />}</CustomerView>;
}

function SubscriptionsLoader({ customer }: { customer: CustomerDetails }) {
  const subs = useQuery(customerSubscriptionsQuery(customer.Id));
  if (subs.isPending) return <PageLoading />;
  if (subs.isError || !subs.data) return <Text color="red">{MSG.subscriptionsLoadFailed}</Text>;
  // New etags (after a save or a reload) start the draft again.
  const d = subs.data;
  return <SubscriptionsForm key={`${d.CustomerEtag}|${d.DeviceSubscriptions.Etag}|${d.AppSubscriptions.Etag}`} customer={customer} data={d} />;
}

function SubscriptionsForm({ customer, data }: { customer: CustomerDetails; data: CustomerSubscriptions }) {
  const qc = useQueryClient();
  const can = useCan();
  const editable = can(P.CustomerManage);
  const features = useQuery(featuresQuery()).data;
  const [draft, setDraft] = useState<Draft>(() => draftOf(data));
  // Unsaved changes mark the tab (closing it asks first).
  const { setDirty } = useTab();
  const initial = useMemo(() => JSON.stringify(draftOf(data)), [data]);
  const dirty = JSON.stringify(draft) !== initial;
  useEffect(() => setDirty(dirty), [dirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);
  const [showAll, setShowAll] = useState(false);
  const [intervalError, setIntervalError] = useState<string | null>(null);

  // Someone saved since the form was loaded: say so; reloading replaces the draft with what is stored.
  const conflict = async () => {
    const reload = await confirm({
      title: CUSTOMER_UI_TEXT.subscriptionsChangedTitle,
      message: MSG.subscriptionsRefresh,
      confirmLabel: CUSTOMER_UI_TEXT.subscriptionsReload,
    });
    if (reload) await qc.invalidateQueries({ queryKey: customerKeys.subscriptions(customer.Id) });
  };

  const save = useMutation({
    meta: { silent: true },
    mutationFn: async () => {
      // Spec §4: a fresh fetch of the current etags first, compared with those the form was loaded with.
      const fresh = await getCustomerSubscriptions(customer.Id);
      if (subscriptionEtagsChanged(data, fresh)) return CONFLICT;
      const over = overAllocatedNames(
        fresh.DeviceSubscriptions.Subscriptions.map((r) => ({
          name: r.Type.Name,
          allocated: r.Allocated,
          entered: draft.devices[r.Type.Value] ?? String(r.Purchased),
        })),
      );
      if (
        over.length &&
        !(await confirm({ title: CUSTOMER_UI_TEXT.overAllocatedTitle, message: CUSTOMER_UI_TEXT.overAllocated(over.join(', ')), confirmLabel: 'Save' }))
      )
        return null;
      return updateCustomerSubscriptions(customer.Id, {
        deviceSubscriptions: {
          subscriptions: data.DeviceSubscriptions.Subscriptions.map((r) => ({
            deviceType: r.Type.Value,
            purchased: Number(draft.devices[r.Type.Value] ?? r.Purchased),
          })),
        },
        appSubscriptions: {
          appFeatures: {
            isWelfareCheckEnabled: draft.features.IsWelfareCheckEnabled,
            isFallDetectionEnabled: draft.features.IsFallDetectionEnabled,
            isTravelSafeEnabled: draft.features.IsTravelSafeEnabled,
            isTrackingEnabled: draft.features.IsTrackingEnabled,
            isSureCamEnabled: draft.features.IsSureCamEnabled,
            trackingInterval: trackingIntervalOut(draft.interval),
            isSosDisabled: draft.features.IsSosDisabled,
          },
          subscriptions: data.AppSubscriptions.Subscriptions.map((r) => ({
            appSubscriptionType: r.Type.Value,
            purchased: Number(draft.app[r.Type.Value] ?? r.Purchased),
          })),
        },
        additionalServices: {
          nationalResponse: draft.services.NationalResponse,
          globalResponse: draft.services.GlobalResponse,
          eurowatch: draft.services.Eurowatch,
          translationServices: draft.services.TranslationServices,
          checkInTimers: draft.services.CheckInTimers,
          teamBroadcast: draft.services.TeamBroadcast,
        },
        customerEtag: data.CustomerEtag,
        deviceSubscriptionsEtag: data.DeviceSubscriptions.Etag,
        appSubscriptionsEtag: data.AppSubscriptions.Etag,
        force: over.length > 0,
      });
    },
    onSuccess: async (res) => {
      if (!res) return;
      if (res === CONFLICT) return conflict();
      toast.success(MSG.subscriptionsUpdated);
      qc.setQueryData(customerKeys.subscriptions(customer.Id), res);
      await qc.invalidateQueries({ queryKey: customerKeys.customer(customer.Id), predicate: (q) => q.queryKey[3] !== 'subscriptions' });
    },
    onError: (err) =>
      errorStatus(err) === 409
        ? conflict()
        : toast.error(errorStatus(err) === 403 ? MSG.forbidden : errorStatus(err) === 400 ? errorMessage(err) : MSG.subscriptionsUpdateFailed),
  });

  const submit = () => {
    // Spec §5: purchased numbers non-empty, non-negative; the tracking interval at least 5 while tracking is on.
    if (!allQuantities([...Object.values(draft.app), ...Object.values(draft.devices)])) {
      toast.error(MSG.subscriptionNumbers);
      return;
    }
    const iErr = trackingIntervalError(draft.features.IsTrackingEnabled, draft.interval);
    setIntervalError(iErr);
    if (iErr) return;
    save.mutate();
  };

  const setFeature = async (key: keyof Draft['features'], on: boolean) => {
    // Spec §4: Disable SOS off → on only through its confirmation; on → off at once.
    if (key === 'IsSosDisabled' && on) {
      const ok = await confirm({
        title: CUSTOMER_UI_TEXT.disableSosTitle,
        message: CUSTOMER_UI_TEXT.disableSosMessage,
        confirmLabel: CUSTOMER_UI_TEXT.disableSosConfirm,
        danger: true,
      });
      if (!ok) return;
    }
    setDraft((d) => ({ ...d, features: { ...d.features, [key]: on } }));
  };

  const deviceRows = data.DeviceSubscriptions.Subscriptions.filter((r) => deviceRowVisible({ purchased: r.Purchased, allocated: r.Allocated }, showAll));
  const checkInTimers = isFeatureOn(features, 'CustomCheckInTime');

  return (
    <Flex direction="column" gap="4" pt="2" style={{ maxWidth: '56rem' }}>
      <Card size="2">
        <Heading as="h2" size="3" mb="3">
          Phone Subscriptions
        </Heading>
        <table className="cu-table" aria-label="Phone Subscriptions">
          <TableHead columns={['Type', 'Subscription', 'Assigned']} />
          <tbody>
            {data.AppSubscriptions.Subscriptions.map((r) => {
              const label = APP_LABEL[r.Type.Name] ?? r.Type.Name;
              const value = draft.app[r.Type.Value] ?? '';
              return (
                <tr key={r.Type.Value} data-tone={phoneRowError(r.Assigned, value) ? 'error' : undefined}>
                  <td>{label}</td>
                  <td>
                    <input
                      type="text"
                      inputMode="numeric"
                      aria-label={`${label} subscription`}
                      value={value}
                      readOnly={!editable}
                      onChange={(e) => setDraft((d) => ({ ...d, app: { ...d.app, [r.Type.Value]: e.target.value } }))}
                    />
                  </td>
                  <td>{r.Assigned}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <Heading as="h3" size="2" mt="4" mb="2">
          {MSG.productName} App Features
        </Heading>
        <Flex direction="column" gap="2">
          {FEATURE_LABELS.map(([key, label]) => (
            <Flex key={key} gap="3" align="center" wrap="wrap">
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <SettingSwitch checked={draft.features[key]} readOnly={!editable} onCheckedChange={(on) => void setFeature(key, on)} />
                  {label}
                  <SwitchState on={draft.features[key]} readOnly={!editable} />
                </Flex>
              </Text>
              {key === 'IsTrackingEnabled' && draft.features.IsTrackingEnabled && (
                <Flex gap="2" align="center">
                  <input
                    type="text"
                    inputMode="numeric"
                    aria-label="Tracking interval"
                    aria-invalid={intervalError ? true : undefined}
                    value={draft.interval}
                    readOnly={!editable}
                    style={{ width: '5rem' }}
                    onChange={(e) => {
                      const interval = e.target.value;
                      setDraft((d) => ({ ...d, interval }));
                      // The message goes as soon as the value is right (it comes back on Save if it is not).
                      if (intervalError && !trackingIntervalError(true, interval)) setIntervalError(null);
                    }}
                  />
                  <Text size="2">minutes</Text>
                  {intervalError && (
                    <Text size="1" color="red" role="alert">
                      {intervalError}
                    </Text>
                  )}
                </Flex>
              )}
            </Flex>
          ))}
          <Flex direction="column" gap="1">
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <SettingSwitch
                  color="red"
                  checked={draft.features.IsSosDisabled}
                  readOnly={!editable}
                  onCheckedChange={(on) => void setFeature('IsSosDisabled', on)}
                />
                Disable SOS
                <SwitchState on={draft.features.IsSosDisabled} readOnly={!editable} />
              </Flex>
            </Text>
            <Text size="1" color="red" weight="bold">
              {MSG.sosWarning}
            </Text>
          </Flex>
        </Flex>
      </Card>
      <Card size="2">
        <Flex justify="between" align="center" mb="3">
          <Heading as="h2" size="3">
            Device Subscriptions
          </Heading>
          <Text as="label" size="2">
            <Flex gap="2" align="center">
              <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
              Show all
            </Flex>
          </Text>
        </Flex>
        {deviceRows.length === 0 ? (
          <Text size="2" color="gray">
            {MSG.noActiveDeviceSubscriptions}
          </Text>
        ) : (
          <table className="cu-table" aria-label="Device Subscriptions">
            <TableHead columns={['Type', 'Subscription', 'Allocated', 'Assigned']} />
            <tbody>
              {deviceRows.map((r) => {
                const value = draft.devices[r.Type.Value] ?? '';
                return (
                  <tr key={r.Type.Value} data-tone={deviceRowTone(r.Allocated, value) ?? undefined}>
                    <td>{r.Type.Name}</td>
                    <td>
                      <input
                        type="text"
                        inputMode="numeric"
                        aria-label={`${r.Type.Name} subscription`}
                        value={value}
                        readOnly={!editable}
                        onChange={(e) => setDraft((d) => ({ ...d, devices: { ...d.devices, [r.Type.Value]: e.target.value } }))}
                      />
                    </td>
                    <td>{r.Allocated}</td>
                    <td>{r.Assigned}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      <Card size="2">
        <Heading as="h2" size="3" mb="3">
          Additional Services
        </Heading>
        <Flex direction="column" gap="2">
          {SERVICE_LABELS.filter(([key]) => key !== 'CheckInTimers' || checkInTimers).map(([key, label]) => (
            <Text as="label" size="2" key={key}>
              <Flex gap="2" align="center">
                <SettingSwitch
                  checked={draft.services[key]}
                  readOnly={!editable}
                  onCheckedChange={(on) => setDraft((d) => ({ ...d, services: { ...d.services, [key]: on } }))}
                />
                {label}
                <SwitchState on={draft.services[key]} readOnly={!editable} />
              </Flex>
            </Text>
          ))}
        </Flex>
      </Card>
      {editable && (
        <Flex justify="end">
          <ActionButton onClick={submit} busy={save.isPending}>
            Save changes
          </ActionButton>
        </Flex>
      )}
    </Flex>
  );
}
