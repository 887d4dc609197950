// Bulk actions on the selected devices (spec §4 "Bulk status change drawer", "Change type"; §5
// "Bulk status", "Bulk order number", "Bulk device type"; §8 failure messages). Every change is
// all or nothing on the server; afterwards the changed rows are read again (new etags, values).
import { useState, type ReactNode } from 'react';
import { useSetAtom } from 'jotai';
import { format } from 'date-fns';
import { Button, Callout, Flex, Text } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import { bulkAtom, updateDevices, type BulkDevice } from '../../state/bulk';
import { MSG } from '../../../shared/messages';
import { errorMessage, errorStatus } from '../../api/query-client';
import { exportDevicesByIds, saveBlob } from '../../api/devices';
import { useCan } from '../../state/session';
import { P } from '../../../shared/permissions';
import { deviceTypeDisplayName, statusDisplayName } from '../../../shared/codes';
import { toast } from '../../ui/toast';
import { changeDeviceType, changeOrderNumberMany, changeStatusMany, getDevicesBySerials } from './api';
import { openRoute } from '../../workspace/actions';
import { getHref } from '../../paths';
import { ACTION_MSG, inAccount, orderEligible, STATUS_TARGETS, statusWarning, TYPE_TARGETS } from './bulk-rules';
import { formatCount } from '../../../shared/numbers';
import { ActionButton } from '../../ui/action-button';

type Kind = 'status' | 'order' | 'type' | null;

const ref = (d: BulkDevice) => ({ id: d.id, etag: d.etag });

function useRefreshRows() {
  const setBulk = useSetAtom(bulkAtom);
  return async (ds: BulkDevice[]) => {
    try {
      const fresh = await getDevicesBySerials(ds.map((d) => d.serialNumber));
      setBulk((s) => updateDevices(s, fresh));
    } catch {
      // the rows keep their old values; the next change reports stale etags
    }
  };
}

/** The server's detail after the spec's message (what was wrong, per device), if it says more. */
function failure(spec: string, err: unknown) {
  const detail = errorMessage(err);
  return detail && detail !== spec && detail !== MSG.default ? `${spec} ${detail}` : spec;
}

export function BulkActions({ selected }: { selected: BulkDevice[] }) {
  const [open, setOpen] = useState<Kind>(null);
  const can = useCan();
  // Read-only staff see the list and the configuration tabs, not the changes they cannot make.
  const manage = can(P.DeviceManage);
  const none = !selected.length;
  return (
    <>
      {manage && (
        <ActionButton variant="soft" disabled={none} onClick={() => setOpen('type')}>
          Change type
        </ActionButton>
      )}
      {/* Spec §2: Change Configuration goes to the current-configuration tab (the Configure & Test tabs work on the selected devices). */}
      <ActionButton variant="soft" disabled={none} onClick={() => openRoute(getHref('bulkCurrentConfig'), { focus: true })}>
        Change Configuration
      </ActionButton>
      {manage && (
        <ActionButton variant="soft" disabled={none} onClick={() => setOpen('order')}>
          Change order number
        </ActionButton>
      )}
      {manage && (
        <ActionButton variant="soft" disabled={none} onClick={() => setOpen('status')}>
          Change Status
        </ActionButton>
      )}
      {manage && open === 'status' && <StatusDrawer selected={selected} onClose={() => setOpen(null)} />}
      {manage && open === 'order' && <OrderDialog selected={selected} onClose={() => setOpen(null)} />}
      {manage && open === 'type' && <TypeDialog selected={selected} onClose={() => setOpen(null)} />}
    </>
  );
}

function Select({
  id,
  label,
  value,
  onChange,
  options,
  display = (o) => o.Name,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { Value: number; Name: string }[];
  /** What the user reads for an option (display names, not codes). */
  display?: (o: { Value: number; Name: string }) => string;
}) {
  return (
    <Flex direction="column" gap="1">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="lw-input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Select…</option>
        {options.map((o) => (
          <option key={o.Value} value={o.Value}>
            {display(o)}
          </option>
        ))}
      </select>
    </Flex>
  );
}

/** A select's change: the value, and its 'Please select …' message goes once a value is chosen. */
function chosen(set: (v: string) => void, error: string | null, setError: (e: string | null) => void, required: string) {
  return (v: string) => {
    set(v);
    if (v && error === required) setError(null);
  };
}

/** The state every bulk action form shares: busy while the request runs, the failure message after. */
function useBulkSubmit(failMessage: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(failure(failMessage, err));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, run };
}

/** The end of every bulk action form: the failure message, Cancel and the submit button. */
function FormEnd({ error, busy, disabled, label, onCancel }: { error: string | null; busy: boolean; disabled?: boolean; label: string; onCancel: () => void }) {
  return (
    <>
      {error && (
        <Callout.Root color="red" size="1" role="alert">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
      <Flex gap="2" justify="end">
        <Button type="button" variant="soft" color="gray" onClick={onCancel}>
          Cancel
        </Button>
        <ActionButton type="submit" busy={busy} disabled={disabled}>
          {label}
        </ActionButton>
      </Flex>
    </>
  );
}

/**
 * The spec has no success text for the bulk order number change: ours (decision "The bulk order number change has its
 * own success text", docs/decisions/scanning-and-bulk-update.md).
 */
export const orderNumberUpdated = (n: number) => `Order number updated for ${formatCount(n)} device(s).`;

/** Spec §9: export names are a label plus a timestamp. */
export const selectedAssetsFileName = (now = new Date()) => `SelectedAssets_${format(now, 'yyyy-MM-dd_HH-mm-ss')}.xlsx`;

/**
 * Spec §4: after a status change, 'Download' saves the selected assets (export by ids, .xlsx, as
 * they are now). Needs the export permission; a failure shows 'Can not export devices'.
 */
function DownloadSelected({ ids }: { ids: string[] }) {
  const can = useCan();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!can(P.DeviceExport)) return null;
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await exportDevicesByIds(ids), selectedAssetsFileName());
    } catch (err) {
      setError(errorStatus(err) === 403 ? MSG.forbidden : MSG.cannotExportDevices);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <ActionButton variant="soft" busy={busy} onClick={() => void download()}>
        Download
      </ActionButton>
      {error && (
        <Callout.Root color="red" size="1" role="alert">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
    </>
  );
}

function StatusDrawer({ selected, onClose }: { selected: BulkDevice[]; onClose: () => void }) {
  const [status, setStatus] = useState('');
  const { error, setError, busy, run } = useBulkSubmit(MSG.statusChangeFailed);
  const [done, setDone] = useState<number | null>(null);
  // The selection as it was changed (the rows are read again after the change).
  const [changedIds, setChangedIds] = useState<string[]>([]);
  const refresh = useRefreshRows();
  const warning = statusWarning(selected, status ? Number(status) : null);
  const submit = async () => {
    if (!status) return setError(ACTION_MSG.statusRequired);
    await run(async () => {
      const r = await changeStatusMany(Number(status), selected.map(ref));
      setChangedIds(selected.map((d) => d.id));
      setDone(r.updated);
      await refresh(selected);
    });
  };
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content
        aria-describedby={undefined}
        style={{ position: 'fixed', top: 0, right: 0, bottom: 0, height: '100%', maxHeight: '100%', width: 'min(420px, 100%)', borderRadius: 0 }}
      >
        <Dialog.Title>Change Status</Dialog.Title>
        {done !== null ? (
          <Flex direction="column" gap="3">
            <Callout.Root color="green" role="status">
              <Callout.Text>{MSG.statusChangeCompleted(done)}</Callout.Text>
            </Callout.Root>
            <Flex justify="end" gap="2" wrap="wrap">
              <DownloadSelected ids={changedIds} />
              <Button onClick={onClose}>Close</Button>
            </Flex>
          </Flex>
        ) : (
          <SubmitForm onSubmit={submit}>
            <Text size="2">{formatCount(selected.length)} selected devices</Text>
            <Select
              id="bulk-status"
              label="Status"
              value={status}
              onChange={chosen(setStatus, error, setError, ACTION_MSG.statusRequired)}
              options={STATUS_TARGETS}
              display={(o) => statusDisplayName(o.Name)}
            />
            {warning && (
              <Callout.Root color="amber" size="1">
                <Callout.Text>{warning}</Callout.Text>
              </Callout.Root>
            )}
            <FormEnd error={error} busy={busy} label="Change Status" onCancel={onClose} />
          </SubmitForm>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** A dialog's form: Enter or the submit button runs `onSubmit`; its fields in a column. */
function SubmitForm({ onSubmit, children }: { onSubmit: () => Promise<unknown>; children: ReactNode }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <Flex direction="column" gap="3">
        {children}
      </Flex>
    </form>
  );
}

/** The dialog of a one-field change of the selected devices. */
function SmallDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Dialog.Root open onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="460px" aria-describedby={undefined}>
        <Dialog.Title>{title}</Dialog.Title>
        {children}
      </Dialog.Content>
    </Dialog.Root>
  );
}

function OrderDialog({ selected, onClose }: { selected: BulkDevice[]; onClose: () => void }) {
  const [order, setOrder] = useState('');
  const { error, setError, busy, run } = useBulkSubmit(MSG.orderNumberFailed);
  const refresh = useRefreshRows();
  const eligible = orderEligible(selected);
  const submit = async () => {
    if (!order.trim()) return setError(ACTION_MSG.orderRequired);
    await run(async () => {
      const r = await changeOrderNumberMany(order.trim(), eligible.map(ref));
      toast.success(orderNumberUpdated(r.updated));
      await refresh(eligible);
      onClose();
    });
  };
  return (
    <SmallDialog title="Change order number" onClose={onClose}>
      <SubmitForm onSubmit={submit}>
        <Flex direction="column" gap="1">
          <label htmlFor="bulk-order">Order Number</label>
          <input id="bulk-order" className="lw-input" value={order} onChange={(e) => setOrder(e.target.value)} disabled={!eligible.length} />
        </Flex>
        {!eligible.length ? (
          <Callout.Root color="amber" size="1">
            <Callout.Text>{MSG.noEligibleOrderNumber}</Callout.Text>
          </Callout.Root>
        ) : (
          eligible.length < selected.length && (
            <Callout.Root color="amber" size="1">
              <Callout.Text>{MSG.orderNumberForN(eligible.length)}</Callout.Text>
            </Callout.Root>
          )
        )}
        <FormEnd error={error} busy={busy} disabled={!eligible.length} label="Change order number" onCancel={onClose} />
      </SubmitForm>
    </SmallDialog>
  );
}

function TypeDialog({ selected, onClose }: { selected: BulkDevice[]; onClose: () => void }) {
  const [type, setType] = useState('');
  const { error, setError, busy, run } = useBulkSubmit(MSG.deviceTypeChangeFailed);
  const refresh = useRefreshRows();
  const blocked = selected.some(inAccount);
  const typeName = TYPE_TARGETS.find((t) => String(t.Value) === type)?.Name;
  const submit = async () => {
    if (!type) return setError(ACTION_MSG.typeRequired);
    await run(async () => {
      await changeDeviceType(
        selected.map((d) => d.serialNumber),
        Number(type),
      );
      toast.success(MSG.devicesTypeChanged);
      await refresh(selected);
      onClose();
    });
  };
  return (
    <SmallDialog title="Change type" onClose={onClose}>
      <SubmitForm onSubmit={submit}>
        {blocked ? (
          <Callout.Root color="red" size="1">
            <Callout.Text>{ACTION_MSG.typeBlocked}</Callout.Text>
          </Callout.Root>
        ) : (
          <Select
            id="bulk-type"
            label="Device type"
            value={type}
            onChange={chosen(setType, error, setError, ACTION_MSG.typeRequired)}
            options={TYPE_TARGETS}
            display={deviceTypeDisplayName}
          />
        )}
        {typeName && !blocked && (
          <Callout.Root color="amber" size="1">
            <Callout.Text>{ACTION_MSG.typeWarning(selected.length, typeName)}</Callout.Text>
          </Callout.Root>
        )}
        <FormEnd error={error} busy={busy} disabled={blocked} label="Change type" onCancel={onClose} />
      </SubmitForm>
    </SmallDialog>
  );
}
