// Customer view, Settings tab titled System (spec document 2 §2, §4 "Settings toggles", §6, §8).
// Each toggle saves at once with the customer's etag. Pausing e-mail delivery, turned on or off
// while e-mails wait (backlog above 0), asks first: all N paused e-mails will be sent at once and
// some customers asked not to receive e-mails. The super-admin-only toggles and the feature-flag
// toggles show only to whom they apply; Alarm Report Intelligence off forces auto-generate off.
import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Card, Flex, Heading, Text } from '@radix-ui/themes';
import { SettingSwitch } from '../../ui/setting-switch';
import { toast } from '../../ui/toast';
import { confirm } from '../../ui/confirm-dialog';
import { claimsAtom } from '../../state/session';
import { useCan } from '../../state/session';
import { errorStatus } from '../../api/query-client';
import { featuresQuery, isFeatureOn } from '../../api/reference';
import {
  customerKeys,
  customerSettingsQuery,
  emailBacklogQuery,
  getEmailBacklog,
  updateCustomerSettings,
  type CustomerDetails,
  type CustomerSettings,
} from '../../api/customers';
import { MSG } from '../../../shared/messages';
import { P, ROLE } from '../../../shared/permissions';
import { applySetting, SETTING_LABELS, settingDisabled, visibleSettings, type SettingKey } from './settings-rules';
import { CustomerView } from './customer-view';
import { PageLoading } from '../../workspace/page-message';
import { CUSTOMER_UI_TEXT } from './text';
import { SwitchState } from '../../ui/switch-state';
import { CustomerFleetThresholds } from './customer-fleet-thresholds';

export function CustomerSettingsPage() {
  const can = useCan();
  return (
    <CustomerView current="customerSettings">
      {(customer) => (
        <>
          <SettingsPanel customer={customer} />
          {can(P.FleetHealthView) && <CustomerFleetThresholds customerId={customer.Id} editable={can(P.CustomerManage)} />}
        </>
      )}
    </CustomerView>
  );
}

function SettingsPanel({ customer }: { customer: CustomerDetails }) {
  const qc = useQueryClient();
  const can = useCan();
  const roles = useAtomValue(claimsAtom).role;
  const features = useQuery(featuresQuery()).data;
  const settings = useQuery(customerSettingsQuery(customer.Id));
  const backlog = useQuery(emailBacklogQuery(customer.TenantId));
  const access = {
    superAdmin: roles.includes(ROLE.SuperAdmin),
    flags: {
      alarmReportIntelligence: isFeatureOn(features, 'EnableAlarmReportIntelligence'),
      autoGenerate: isFeatureOn(features, 'AutoGenerateAlarmReportIntelligence'),
    },
  };
  const editable = can(P.CustomerManage);

  const save = useMutation({
    mutationFn: ({ current, key, on }: { current: CustomerSettings; key: SettingKey; on: boolean }) =>
      updateCustomerSettings(customer.Id, current.CustomerEtag, applySetting(current.Settings, key, on)),
    onSuccess: async (res) => {
      qc.setQueryData(customerKeys.settings(customer.Id), res);
      toast.success(MSG.settingsUpdated);
      // Other tabs of this customer carry the customer etag too.
      await qc.invalidateQueries({ queryKey: customerKeys.customer(customer.Id), predicate: (q) => q.queryKey[3] !== 'settings' });
      await qc.invalidateQueries({ queryKey: customerKeys.backlog(customer.TenantId) });
    },
    onError: (err) => {
      const status = errorStatus(err);
      // Spec §8: a stale etag asks for a refresh; a refusal is the permission message.
      toast.error(
        status === 409 ? MSG.settingsRefresh : status === 403 ? MSG.forbidden : status && status < 500 ? MSG.settingsUpdateFailed : MSG.settingsRetry,
      );
      if (status === 409) void settings.refetch();
    },
  });

  if (settings.isPending) return <PageLoading />;
  if (settings.isError || !settings.data) return <Text color="red">{MSG.settingsRetry}</Text>;
  const current = settings.data;

  const toggle = async (key: SettingKey, on: boolean) => {
    if (save.isPending) return;
    if (key === 'IsAutomaticEmailsPaused') {
      // The latest count decides whether to ask (e-mails may have queued since the page loaded).
      const count = (await getEmailBacklog(customer.TenantId).catch(() => backlog.data))?.count ?? 0;
      if (count > 0) {
        const ok = await confirm({
          title: on ? 'Pause email delivery' : 'Resume email delivery',
          message: CUSTOMER_UI_TEXT.pauseWarning(count),
          confirmLabel: 'Confirm',
          danger: true,
        });
        if (!ok) return;
      }
    }
    save.mutate({ current, key, on });
  };

  const count = backlog.data?.count ?? 0;
  return (
    <Card size="2" mt="2" style={{ maxWidth: '44rem' }}>
      <Heading as="h2" size="3" mb="3">
        System
      </Heading>
      <Flex direction="column" gap="3" role="group" aria-label="Customer settings">
        {visibleSettings(access).map((key) => (
          <Flex key={key} direction="column" gap="1">
            <Text as="label" size="2">
              <Flex gap="3" align="center">
                <SettingSwitch
                  checked={current.Settings[key]}
                  readOnly={!editable || settingDisabled(current.Settings, key)}
                  busy={save.isPending}
                  onCheckedChange={(on) => void toggle(key, on)}
                />
                {SETTING_LABELS[key]}
                <SwitchState on={current.Settings[key]} readOnly={!editable} />
              </Flex>
            </Text>
            {key === 'IsAutomaticEmailsPaused' && (
              <Text size="1" color="gray" data-testid="email-backlog">
                {CUSTOMER_UI_TEXT.pausedBacklog(count)}
              </Text>
            )}
          </Flex>
        ))}
      </Flex>
    </Card>
  );
}
