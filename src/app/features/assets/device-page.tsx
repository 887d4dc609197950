// Device Details (spec document 2 §2 "Device detail page", §5 device basic form, §8 messages): a
// header, the Status section, the basic-information form (editable Supplier, SIM type, SIM serial
// number, Phone number, IMSI; the rest read-only) with Cancel and Save, each behind its
// confirmation, and the live column (device-live.tsx: the Configuration section with its refresh
// actions and the Message Stream). Leaving with unsaved changes asks the workspace's question (the
// tab is marked dirty).
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Callout, Card, DataList, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { confirm } from '../../ui/confirm-dialog';
import { valibotResolver } from '../../ui/valibot-resolver';
import { useTab } from '../../workspace/tab-context';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import { useCan } from '../../state/session';
import { errorMessage, errorStatus } from '../../api/query-client';
import { ROUTES } from '../../paths';
import { MSG } from '../../../shared/messages';
import { isValidId } from '../../../shared/codes';
import { P } from '../../../shared/permissions';
import { STATUS } from '../../../shared/schemas/devices';
import { deviceDetailQuery, deviceKeys, patchDeviceInCache, simTypesQuery, updateDeviceGeneralDetails, type DeviceDto } from '../../api/devices';
import { changedDetails, deviceFormSchema, deviceFormValues, DEVICE_TEXTS, isSimExempt, type DeviceFormValues } from './device-form';
import { dash, formatDate, formatDateTime, statusLabel } from './asset-format';
import { DeviceLiveColumn } from './device-live';
import { HistoryPanel } from '../../ui/history-panel';
import { adminKeys, useRecordHistory } from '../../api/admin';
import '../../ui/data-table/list-widgets.css';
import './assets.css';
import { ActionButton } from '../../ui/action-button';
import { useRecordLive } from '../../api/record-live';
import { mayReloadTab } from '../../workspace/actions';
import { RecordLiveBar } from '../../ui/record-live-bar';

export function DevicePage() {
  const { params, setTitle } = useTab();
  const deviceId = params.deviceId ?? '';
  const valid = isValidId(deviceId);
  const detail = useQuery(deviceDetailQuery(deviceId));
  // The SIM type select needs its options before the form starts, or it would show no choice.
  const simTypes = useQuery(simTypesQuery());
  const device = detail.data;
  useEffect(() => setTitle(device ? `${ROUTES.device.title} ${device.serialNumber}` : ROUTES.device.title), [device, setTitle]);

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  if (detail.isPending || simTypes.isPending) {
    return <PageLoading />;
  }
  if (detail.isError) return <PageMessage message={errorStatus(detail.error) === 404 ? MSG.deviceUnknown : errorMessage(detail.error)} />;
  return <DeviceView device={detail.data} />;
}

function DeviceView({ device }: { device: DeviceDto }) {
  const history = useRecordHistory('device', device.id);
  // Others at work on this device: a change raises the reload bar; Reload loads the device again
  // and starts the form afresh (after asking, when it has unsaved changes).
  const tab = useTab();
  const qc = useQueryClient();
  const others = useRecordLive('device', device.id);
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    if (!(await mayReloadTab(tab.tabId))) return;
    others.clear();
    void qc.invalidateQueries({ queryKey: adminKeys.audit() });
    await qc.refetchQueries({ queryKey: deviceKeys.detail(device.id) });
    setGeneration((g) => g + 1);
  };
  return (
    <Flex direction="column" gap="4" p="4" className="lw-device">
      <header className="lw-device__header">
        <Flex align="center" gap="3" wrap="wrap">
          <Heading as="h1" size="5">
            {device.serialNumber}
          </Heading>
          <Badge size="2" color="gray">
            {device.type.name}
          </Badge>
          <Badge size="2" color={device.status.value === STATUS.Allocated ? 'green' : 'blue'} highContrast>
            {statusLabel(device.status.name)}
          </Badge>
        </Flex>
        <Text size="2" color="gray">
          {ROUTES.device.title}
          {device.customerName ? ` · ${device.customerName}` : ''}
        </Text>
      </header>
      <RecordLiveBar changedBy={others.changedBy} present={others.present} onReload={() => void reload()} />
      <div className="lw-device__grid">
        <Flex direction="column" gap="4">
          <StatusSection device={device} />
          <BasicInformation key={`${device.id}:${generation}`} device={device} />
          <HistoryPanel history={history} />
        </Flex>
        <DeviceLiveColumn device={device} />
      </div>
    </Flex>
  );
}

function StatusSection({ device }: { device: DeviceDto }) {
  return (
    <Card size="2" asChild>
      <section aria-labelledby="device-status-h">
        <Heading as="h2" size="3" mb="2" id="device-status-h">
          Status
        </Heading>
        <DataList.Root size="2">
          <DataList.Item>
            <DataList.Label>Status</DataList.Label>
            <DataList.Value data-testid="device-status">{statusLabel(device.status.name)}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Customer</DataList.Label>
            <DataList.Value>{dash(device.customerName)}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Assigned</DataList.Label>
            <DataList.Value>{device.isUserAssigned ? 'Yes' : 'No'}</DataList.Value>
          </DataList.Item>
        </DataList.Root>
      </section>
    </Card>
  );
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <FormField label={label}>
      <TextField.Root value={value} readOnly disabled />
    </FormField>
  );
}

function BasicInformation({ device }: { device: DeviceDto }) {
  const tab = useTab();
  const { setDirty } = tab;
  const can = useCan();
  const qc = useQueryClient();
  const editable = can(P.DeviceManage);
  const simTypes = useQuery(simTypesQuery()).data ?? [];
  const exempt = isSimExempt(device.type.value);

  const initial = useMemo(() => deviceFormValues(device), [device]);
  const resolver = useMemo(() => valibotResolver<DeviceFormValues>(deviceFormSchema(device.type.value)), [device.type.value]);
  const form = useForm<DeviceFormValues>({ defaultValues: initial, resolver, mode: 'onChange' });
  const { register, handleSubmit, formState, reset } = form;
  const { errors, isDirty, isValid } = formState;
  const [serverError, setServerError] = useState<string | null>(null);

  useEffect(() => setDirty(isDirty), [isDirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);
  // Check the stored values at once: Save stays off until the form is valid and changed.
  useEffect(() => void form.trigger(), [form]);

  const save = useMutation({
    mutationFn: async (values: DeviceFormValues) => {
      const cached = qc.getQueryData<DeviceDto>(deviceKeys.detail(device.id));
      const details = changedDetails(initial, values);
      if (Object.keys(details).length === 0) throw new Error(MSG.updatePayloadMissing);
      return updateDeviceGeneralDetails(device.id, cached?.etag ?? device.etag, details);
    },
    onSuccess: (updated) => {
      patchDeviceInCache(qc, updated);
      void qc.invalidateQueries({ queryKey: adminKeys.audit() });
      reset(deviceFormValues(updated));
      setDirty(false);
      setServerError(null);
      toast.success(MSG.deviceUpdated);
    },
    onError: (err) => {
      const status = errorStatus(err);
      const text = status === 403 ? MSG.forbidden : status === 409 || status === 422 || status === 400 ? errorMessage(err) : MSG.deviceUpdateFailed;
      setServerError(text);
      toast.error(MSG.deviceUpdateFailed);
    },
  });

  const onSave = handleSubmit(async (values) => {
    if (!(await confirm({ message: DEVICE_TEXTS.saveQuestion, confirmLabel: 'Save' }))) return;
    save.mutate(values);
  });
  const onCancel = async () => {
    if (!isDirty) return;
    if (!(await confirm({ message: DEVICE_TEXTS.discardQuestion, confirmLabel: 'Discard', danger: true }))) return;
    reset(initial);
    setServerError(null);
  };

  const simHint = exempt ? 'Optional for this device type' : undefined;
  return (
    <Card size="2" asChild>
      <section aria-labelledby="device-basic-h">
        <Heading as="h2" size="3" mb="3" id="device-basic-h">
          Basic information
        </Heading>
        <form onSubmit={(e) => void onSave(e)} noValidate aria-label="Basic information">
          <Flex direction="column" gap="3">
            {serverError && (
              <Callout.Root color="red" role="alert">
                <Callout.Text>{serverError}</Callout.Text>
              </Callout.Root>
            )}
            <div className="lw-device__fields">
              <FormField label="Supplier" required error={errors.supplier?.message}>
                <TextField.Root maxLength={100} autoComplete="off" disabled={!editable} {...register('supplier')} />
              </FormField>
              <FormField label="SIM type" required={!exempt} hint={simHint} error={errors.simTypeId?.message}>
                <select className="lw-select" disabled={!editable} {...register('simTypeId')}>
                  <option value="">Select SIM type</option>
                  {simTypes.map((s) => (
                    <option key={s.Value} value={String(s.Value)}>
                      {s.Name}
                    </option>
                  ))}
                </select>
              </FormField>
              <FormField label="SIM serial number" required={!exempt} hint={simHint} error={errors.simSerial?.message}>
                <TextField.Root maxLength={100} autoComplete="off" disabled={!editable} {...register('simSerial')} />
              </FormField>
              <FormField label="Phone number" required={!exempt} hint={simHint} error={errors.phoneNumber?.message}>
                <TextField.Root type="tel" maxLength={100} autoComplete="off" disabled={!editable} {...register('phoneNumber')} />
              </FormField>
              <FormField label="IMSI" error={errors.imsi?.message}>
                <TextField.Root maxLength={100} autoComplete="off" disabled={!editable} {...register('imsi')} />
              </FormField>
              <ReadOnly label="Order Number" value={dash(device.orderNumber)} />
              <ReadOnly label="Date received" value={formatDate(device.dateReceived)} />
              <ReadOnly label="Device type" value={device.type.name} />
              <ReadOnly label="Serial Number" value={device.serialNumber} />
              <ReadOnly label="IMEI" value={dash(device.imei)} />
              <ReadOnly label="Sim Status" value={dash(device.simStatus?.name)} />
              <ReadOnly label="Last update" value={formatDateTime(device.lastUpdated)} />
              <ReadOnly label="Added to system" value={formatDateTime(device.addedToSystem)} />
            </div>
            {editable && (
              <Flex gap="3" justify="end">
                <ActionButton type="button" variant="soft" color="gray" disabled={!isDirty || save.isPending} onClick={() => void onCancel()}>
                  {MSG.uiCancel}
                </ActionButton>
                <ActionButton type="submit" disabled={!isDirty || !isValid} busy={save.isPending}>
                  Save
                </ActionButton>
              </Flex>
            )}
          </Flex>
        </form>
      </section>
    </Card>
  );
}
