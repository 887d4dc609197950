// Bulk management tab Change Configuration (spec document 2 §3 "Configuration change payload",
// "Fall-detection presets", §4 "Configuration submit", §5 "Configuration change"): a
// react-hook-form form over the selected devices of the bulk list. Each group is sent only when
// its 'change' box is ticked; the rules live in change-config-form.ts. Submit asks first, queues
// the change (PUT /api/v1/device/desired-configuration) and goes to the Current Configuration tab.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Callout, Flex, Grid, Heading, Text, TextField } from '@radix-ui/themes';
import { SettingSwitch } from '../../ui/setting-switch';
import { FormField } from '../../ui/form-field';
import { toast } from '../../ui/toast';
import { confirm } from '../../ui/confirm-dialog';
import { valibotResolver } from '../../ui/valibot-resolver';
import { useTab } from '../../workspace/tab-context';
import { useCan } from '../../state/session';
import { errorMessage, errorStatus } from '../../api/query-client';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { P } from '../../../shared/permissions';
import {
  FALL_PRESET_CUSTOM,
  FALL_VALUE_MAX as FALL_MAX,
  FALL_VALUE_MIN as FALL_MIN,
  COMMUNICATION_PROTOCOLS as PROTOCOLS,
  MAX_TRACKING_INTERVAL as TRACKING_MAX,
  MIN_TRACKING_INTERVAL as TRACKING_MIN,
  TRACKING_INTERVALS,
  type CommunicationProtocol,
} from '../../../shared/schemas/live';
import { configurationTypesQuery, firmwareVersionsQuery, queueConfigurationChange } from '../../api/live';
import { ManageShell, useSelectedDevices } from './manage-shell';
import {
  buildChangePayload,
  changeConfigErrors,
  CHANGE_TEXTS,
  deviceTypeRule,
  EMPTY_CHANGE,
  fallChoicesFor,
  hasAnyChange,
  rawCommandError,
  type ChangeConfigValues,
  type ChangeContext,
} from './change-config-form';
import * as v from 'valibot';
import { formatPhone } from '../../../shared/phone';
import '../../ui/data-table/list-widgets.css';
import { ActionButton } from '../../ui/action-button';

// The rules need the selection (firmware, call types): they run in the resolver's `extra`.
const anything = v.any();

export function ChangeConfigPage() {
  const devices = useSelectedDevices();
  const serials = useMemo(() => devices.map((d) => d.serialNumber), [devices]);
  const firmware = useQuery({ ...firmwareVersionsQuery(serials), enabled: serials.length > 0 });
  const types = useQuery(configurationTypesQuery());
  return (
    <ManageShell current="bulkChangeConfig" count={devices.length} loading={firmware.isPending || types.isPending}>
      {firmware.isError || types.isError ? (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{MSG.configOptionsFailed}</Callout.Text>
        </Callout.Root>
      ) : (
        <ChangeConfigForm
          serials={serials}
          deviceTypes={firmware.data?.Items.length ? firmware.data.Items.map((f) => f.Type.Value) : devices.map((d) => d.type.value)}
          firmwareVersions={(firmware.data?.Items ?? []).map((f) => f.FirmwareVersion)}
          callTypes={(types.data?.EnumValues ?? []).map((t) => ({ value: t.Value, label: t.Name, phoneNumber: t.PhoneNumber }))}
          customCallType={types.data?.EnumValues.find((t) => t.IsCustom)?.Value ?? null}
        />
      )}
    </ManageShell>
  );
}

type CallType = { value: number; label: string; phoneNumber: string | null };

export function ChangeConfigForm({
  serials,
  deviceTypes,
  firmwareVersions,
  callTypes,
  customCallType,
}: {
  serials: string[];
  deviceTypes: number[];
  firmwareVersions: (string | null)[];
  callTypes: CallType[];
  customCallType: number | null;
}) {
  const tab = useTab();
  const can = useCan();
  const { setDirty } = tab;
  const fall = useMemo(() => fallChoicesFor(firmwareVersions), [firmwareVersions]);
  const presets = fall?.presets ?? null;
  const ctx: ChangeContext = useMemo(() => ({ customCallType, fall }), [customCallType, fall]);
  const typeProblem = deviceTypeRule(deviceTypes);
  const editable = can(P.DeviceManage);

  const resolver = useMemo(() => valibotResolver<ChangeConfigValues>(anything, { extra: (x) => changeConfigErrors(x, ctx) }), [ctx]);
  const form = useForm<ChangeConfigValues>({ defaultValues: EMPTY_CHANGE, resolver, mode: 'onChange' });
  const { register, handleSubmit, formState, setValue, control, reset } = form;
  const { errors, isDirty } = formState;
  const x = useWatch({ control }) as ChangeConfigValues;
  const [formError, setFormError] = useState<string | null>(null);
  const [command, setCommand] = useState('');
  const [protocol, setProtocol] = useState('');
  const [commandError, setCommandError] = useState<string | null>(null);

  // Messages go once their reason does: a field error when the value is fixed or its group is
  // unticked (the resolver re-checks only the field that changed), the form error with them.
  const { clearErrors } = form;
  const live = useMemo(() => changeConfigErrors(x, ctx), [x, ctx]);
  const shown = Object.keys(errors) as (keyof ChangeConfigValues)[];
  const stale = shown.filter((k) => !live[k]);
  useEffect(() => {
    if (stale.length) clearErrors(stale);
  }, [stale.join(), clearErrors]); // eslint-disable-line react-hooks/exhaustive-deps
  const settled = !Object.keys(live).length;
  const anyChange = hasAnyChange(x);
  useEffect(() => {
    setFormError((f) => ((f === MSG.invalidConfiguration && settled) || (f === MSG.atLeastOneConfig && anyChange) ? null : f));
  }, [settled, anyChange]);

  useEffect(() => setDirty(isDirty), [isDirty, setDirty]);
  useEffect(() => () => setDirty(false), [setDirty]);

  const send = useMutation({
    mutationFn: (values: ChangeConfigValues) => queueConfigurationChange(buildChangePayload(values, serials, ctx)),
    onSuccess: () => {
      reset(EMPTY_CHANGE);
      setDirty(false);
      toast.success(MSG.configQueued);
      tab.navigate(getHref('bulkCurrentConfig'));
    },
    onError: (err) => {
      const status = errorStatus(err);
      const text = status === 403 ? MSG.forbidden : status === 400 || status === 409 || status === 422 ? errorMessage(err) : MSG.configChangeFailed;
      setFormError(text);
      toast.error(MSG.configChangeFailed);
    },
  });

  const onSubmit = async () => {
    setFormError(null);
    const values = form.getValues();
    if (!hasAnyChange(values)) {
      setFormError(MSG.atLeastOneConfig);
      return;
    }
    if (!(await form.trigger())) {
      setFormError(MSG.invalidConfiguration);
      return;
    }
    await handleSubmit(async (ok) => {
      if (!(await confirm({ title: 'Change configuration', message: CHANGE_TEXTS.confirm(serials.length), confirmLabel: 'Send configuration' }))) return;
      send.mutate(ok);
    })();
  };

  const addCommand = () => {
    const problem = rawCommandError(x.rawCommands ?? [], command, protocol);
    setCommandError(problem);
    if (problem) return;
    setValue('rawCommands', [...(x.rawCommands ?? []), { rawCommand: command.trim(), communicationProtocol: protocol as CommunicationProtocol }], {
      shouldDirty: true,
      shouldValidate: true,
    });
    setCommand('');
  };

  // Not while sending: a field that becomes disabled drops the focus (the submit button is busy instead).
  const disabledAll = !editable || !!typeProblem;
  const id = tab.tabId;
  /** The on/off switch of a setting whose group is ticked (`change`). */
  const onOff = (name: 'isTrackingEnabled' | 'isManDownEnabled', label: string, change: boolean | undefined) => (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <SettingSwitch
          checked={!!x[name]}
          readOnly={!editable || !!typeProblem || !change}
          busy={send.isPending}
          onCheckedChange={(c) => setValue(name, c, { shouldDirty: true, shouldValidate: true })}
        />
        {label} {x[name] ? 'on' : 'off'}
      </Flex>
    </Text>
  );
  return (
    <form
      className="lw-manage__form"
      aria-label="Change Configuration"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <Flex direction="column" gap="3">
        {typeProblem && (
          <Callout.Root color="amber" role="alert" data-testid="type-rule">
            <Callout.Text>{typeProblem}</Callout.Text>
          </Callout.Root>
        )}
        {formError && (
          <Callout.Root color="red" role="alert" data-testid="form-error">
            <Callout.Text>{formError}</Callout.Text>
          </Callout.Root>
        )}

        <Group title="Tracking" change="trackingChange" on={!!x.trackingChange} register={register} disabled={disabledAll}>
          <Flex gap="4" align="end" wrap="wrap">
            {onOff('isTrackingEnabled', 'Tracking', x.trackingChange)}
            {x.isTrackingEnabled && (
              <FormField label="Tracking interval (minutes)" required error={errors.trackingInterval?.message}>
                <TextField.Root
                  type="number"
                  inputMode="numeric"
                  min={TRACKING_MIN}
                  max={TRACKING_MAX}
                  list={`${id}-intervals`}
                  disabled={disabledAll || !x.trackingChange}
                  style={{ width: '9rem' }}
                  {...register('trackingInterval')}
                />
              </FormField>
            )}
            <datalist id={`${id}-intervals`}>
              {TRACKING_INTERVALS.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </Flex>
        </Group>

        <Group
          title="Fall detection"
          change="fallChange"
          on={!!x.fallChange}
          register={register}
          disabled={disabledAll || !presets}
          note={!presets ? CHANGE_TEXTS.fallNeedsOneFirmware : undefined}
          error={errors.fallChange?.message}
        >
          <Flex gap="4" align="end" wrap="wrap">
            {onOff('isManDownEnabled', 'Fall detection', x.fallChange)}
            {x.isManDownEnabled && (
              <FormField label="Sensitivity level" required error={errors.fallPreset?.message}>
                <select className="lw-select" disabled={disabledAll || !x.fallChange || !presets} {...register('fallPreset')}>
                  <option value="">Select a setting</option>
                  {(presets ?? []).map((p) => (
                    <option key={p.Value} value={p.Value}>
                      {p.Name} ({p.Value.replace(/-/g, '/')})
                    </option>
                  ))}
                  {fall?.custom && <option value={FALL_PRESET_CUSTOM}>{FALL_PRESET_CUSTOM}</option>}
                </select>
              </FormField>
            )}
          </Flex>
          {x.isManDownEnabled && x.fallPreset === FALL_PRESET_CUSTOM && !!fall?.custom && (
            <Grid columns={{ initial: '1', sm: '3' }} gap="3" mt="2">
              {(
                [
                  ['manDownSensitivity', 'Sensitivity'],
                  ['manDownUpTime', 'Up time'],
                  ['manDownNonMovementDuration', 'Non-movement duration'],
                ] as const
              ).map(([name, label]) => (
                <FormField key={name} label={label} required hint={`${FALL_MIN}–${FALL_MAX}`} error={errors[name]?.message}>
                  <TextField.Root type="number" inputMode="numeric" min={FALL_MIN} max={FALL_MAX} disabled={disabledAll || !x.fallChange} {...register(name)} />
                </FormField>
              ))}
            </Grid>
          )}
        </Group>

        {([1, 2] as const).map((n) => {
          const change = `call${n}Change` as const;
          const button = `call${n}Button` as const;
          const number = `call${n}Number` as const;
          const custom = customCallType !== null && Number(x[button]) === customCallType && x[button] !== '';
          return (
            <Group key={n} title={`Call ${n} button`} change={change} on={!!x[change]} register={register} disabled={disabledAll}>
              <Flex gap="4" align="start" wrap="wrap">
                <FormField label={`Call ${n} type`} required error={errors[button]?.message}>
                  <select className="lw-select" disabled={disabledAll || !x[change]} {...register(button)}>
                    <option value="">Select a type</option>
                    {callTypes.map((t) => (
                      <option key={t.value} value={String(t.value)}>
                        {t.label}
                        {t.phoneNumber ? ` (${formatPhone(t.phoneNumber)})` : ''}
                      </option>
                    ))}
                  </select>
                </FormField>
                {custom && (
                  <FormField label={`Call ${n} number`} required error={errors[number]?.message}>
                    <TextField.Root type="tel" autoComplete="off" maxLength={32} disabled={disabledAll || !x[change]} {...register(number)} />
                  </FormField>
                )}
              </Flex>
            </Group>
          );
        })}

        <section className="lw-manage__group" aria-labelledby={`${id}-commands-h`}>
          <Heading as="h2" size="3" mb="2" id={`${id}-commands-h`}>
            Custom commands
          </Heading>
          <Flex gap="3" align="start" wrap="wrap">
            <FormField label="Command" error={commandError === MSG.enterCustomCommand || commandError === MSG.commandExists ? commandError : undefined}>
              <TextField.Root
                autoComplete="off"
                maxLength={500}
                value={command}
                disabled={disabledAll}
                style={{ width: '22rem', maxWidth: '60vw' }}
                onChange={(e) => setCommand(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addCommand();
                  }
                }}
              />
            </FormField>
            <FormField label="Delivery method" error={commandError === MSG.selectDeliveryMethod ? commandError : undefined}>
              <select className="lw-select" value={protocol} disabled={disabledAll} onChange={(e) => setProtocol(e.target.value)}>
                <option value="">Select</option>
                {PROTOCOLS.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </FormField>
            <ActionButton type="button" variant="soft" mt="5" disabled={disabledAll} onClick={addCommand}>
              Add command
            </ActionButton>
          </Flex>
          {(x.rawCommands ?? []).length > 0 && (
            <ul className="lw-manage__commands" aria-label="Commands to send">
              {(x.rawCommands ?? []).map((c, i) => (
                <li key={`${c.communicationProtocol}:${c.rawCommand}`}>
                  <Flex gap="2" align="center">
                    <Text size="2">
                      <code>{c.rawCommand}</code> over {c.communicationProtocol}
                    </Text>
                    <Button
                      type="button"
                      size="1"
                      variant="ghost"
                      color="red"
                      aria-label={`Remove command ${c.rawCommand} (${c.communicationProtocol})`}
                      onClick={() =>
                        setValue(
                          'rawCommands',
                          (x.rawCommands ?? []).filter((_, k) => k !== i),
                          { shouldDirty: true },
                        )
                      }
                    >
                      Remove
                    </Button>
                  </Flex>
                </li>
              ))}
            </ul>
          )}
        </section>

        {editable && (
          <Flex gap="3" justify="end">
            <ActionButton type="button" variant="soft" color="gray" disabled={!isDirty || send.isPending} onClick={() => reset(EMPTY_CHANGE)}>
              {MSG.uiCancel}
            </ActionButton>
            <ActionButton type="submit" disabled={!!typeProblem} busy={send.isPending}>
              Send configuration
            </ActionButton>
          </Flex>
        )}
      </Flex>
    </form>
  );
}

function Group({
  title,
  change,
  on,
  register,
  disabled,
  note,
  error,
  children,
}: {
  title: string;
  change: 'trackingChange' | 'fallChange' | 'call1Change' | 'call2Change';
  on: boolean;
  register: ReturnType<typeof useForm<ChangeConfigValues>>['register'];
  disabled: boolean;
  note?: string;
  error?: string;
  children: ReactNode;
}) {
  const reg = register(change);
  return (
    <section className="lw-manage__group" data-on={on} aria-label={title}>
      <Flex align="center" justify="between" gap="3" mb="2" wrap="wrap">
        <Heading as="h2" size="3">
          {title}
        </Heading>
        <Text as="label" size="2">
          <Flex gap="2" align="center">
            <input type="checkbox" disabled={disabled} {...reg} />
            Change {title.toLowerCase()}
          </Flex>
        </Text>
      </Flex>
      {note && (
        <Text as="p" size="2" color="amber" mb="2">
          {note}
        </Text>
      )}
      {error && error !== note && (
        <Text as="p" size="2" color="red" role="alert" mb="2">
          {error}
        </Text>
      )}
      <div className="lw-manage__group-body">{children}</div>
    </section>
  );
}
