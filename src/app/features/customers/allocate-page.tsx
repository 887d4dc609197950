// Allocate Devices (spec document 2 §2, §4 "Allocation rows", §5 "Allocation", §8): serials by
// keyboard or scanner (the field keeps focus and clears after each Enter; scans queue and resolve
// in order, a batch at a time, so none is lost at scanner speed), or a CSV (the bulk page's CSV
// rules, then the server's import). Eligible rows start checked, others are disabled; unknown
// serials read 'Not found'. Allocation is all or nothing, after the spec's confirmations.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Callout, Card, Flex, Heading, Text, TextField } from '@radix-ui/themes';
import { toast } from '../../ui/toast';
import { ExportProgressBar } from '../../ui/export-progress';
import { useImportJob } from '../../api/export-jobs';
import { confirm } from '../../ui/confirm-dialog';
import { readCsvColumn } from '../../ui/serials/csv';
import { useTab } from '../../workspace/tab-context';
import { errorFields, errorMessage, errorStatus } from '../../api/query-client';
import { getDevicesBySerials, type DeviceDto } from '../../api/devices';
import { allocateDevices, customerKeys, customerSubscriptionsQuery, importDevicesToAllocate } from '../../api/customers';
import { getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { ALLOCATE_IMPORT_COLUMN, CUSTOMER_CODE } from '../../../shared/schemas/customers';
import { NOT_FOUND_ETAG, placeholderDevice } from '../../../shared/schemas/devices';
import { allocationConfirmation, exceededTypes, nextEntryNotice, serialEntryProblem, type AllocRow, type EntryNotice, type Quota } from './allocation-rules';
import { useCustomer } from './customer-view';
import { takeHandedOver } from './allocation-handoff';
import { CUSTOMER_UI_TEXT } from './text';
import './customers.css';
import { formatCount } from '../../../shared/numbers';
import { ActionButton } from '../../ui/action-button';
import { CsvFileInput } from '../../ui/serials/csv-file-input';

type Row = { key: string; serial: string; device: DeviceDto | null; checked: boolean; error?: string };

const eligible = (d: DeviceDto | null) => !!d && d.etag !== NOT_FOUND_ETAG && d.isAllocatable;
const norm = (s: string) => s.trim().toUpperCase();

export function AllocatePage() {
  const tab = useTab();
  const { setTitle } = tab;
  const { id, customer, problem } = useCustomer();
  useEffect(() => setTitle('Allocate Devices'), [setTitle]);
  if (problem || !customer) return problem;
  return <Allocate customerId={id} customerName={customer.Name} />;
}

function Allocate({ customerId, customerName }: { customerId: string; customerName: string }) {
  const tab = useTab();
  const qc = useQueryClient();
  const subs = useQuery(customerSubscriptionsQuery(customerId));
  // Devices imported on the Devices tab arrive with the page.
  const [rows, setRows] = useState<Row[]>(() =>
    takeHandedOver(customerId).map((d): Row => ({
      key: d.serialNumber.trim().toUpperCase(),
      serial: d.serialNumber,
      device: d,
      checked: d.etag !== NOT_FOUND_ETAG && d.isAllocatable,
    })),
  );
  const rowsRef = useRef<Row[]>([]);
  rowsRef.current = rows;
  const [serial, setSerial] = useState('');
  const [notice, setNotice] = useState<EntryNotice>({ error: '', repeats: [] });
  const entryError = notice.error;
  const [orderNumber, setOrderNumber] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  // ---- the scan queue: serials wait here in scan order; one request at a time resolves them all.
  const queue = useRef<string[]>([]);
  const running = useRef(false);
  const pump = async () => {
    if (running.current) return;
    running.current = true;
    try {
      let failures = 0;
      while (queue.current.length) {
        const batch = queue.current.slice(0, 500);
        try {
          const res = await getDevicesBySerials(batch);
          queue.current = queue.current.slice(batch.length);
          failures = 0;
          const found = new Map(res.devices.map((d) => [norm(d.serialNumber), d]));
          setRows((rs) =>
            rs.map((r) => {
              if (r.device || !batch.some((s) => norm(s) === norm(r.serial))) return r;
              const d = found.get(norm(r.serial)) ?? null;
              const device = d ?? placeholderDevice(r.serial);
              return { ...r, device, checked: eligible(device) };
            }),
          );
        } catch {
          failures++;
          if (failures === 1) toast.error(MSG.bulkLookupFailed);
          await new Promise((r) => setTimeout(r, Math.min(8000, 500 * 2 ** failures)));
        }
      }
    } finally {
      running.current = false;
    }
  };
  const enqueue = (serials: string[]) => {
    const known = new Set(rowsRef.current.map((r) => norm(r.serial)));
    const fresh: string[] = [];
    for (const s of serials.map((x) => x.trim()).filter(Boolean)) {
      if (known.has(norm(s))) continue;
      known.add(norm(s));
      fresh.push(s);
    }
    if (!fresh.length) return 0;
    const added = fresh.map((s): Row => ({ key: `${norm(s)}`, serial: s, device: null, checked: false })).reverse();
    rowsRef.current = [...added, ...rowsRef.current];
    // prepended onto the state as it is when React applies it: a batch answer that filled rows after
    // the last render is kept (a snapshot of rowsRef would put those rows back to 'Looking up…')
    setRows((rs) => [...added, ...rs]);
    queue.current.push(...fresh);
    void pump();
    return fresh.length;
  };

  const addSerial = () => {
    const problem = serialEntryProblem(
      serial,
      rowsRef.current.map((r) => ({ serialNumber: r.serial })),
      MSG.noSerialEntered,
      MSG.deviceAlreadyAdded,
    );
    setNotice((n) => nextEntryNotice(n, serial, problem, MSG.deviceAlreadyAdded));
    if (!problem) enqueue([serial]);
    setSerial('');
    inputRef.current?.focus();
  };

  // A job of the server's pool: rows looked up of total while it runs, with Cancel.
  const importer = useImportJob(
    async (file, o) => {
      // The bulk page's CSV rules first (type, column, parse), so a wrong file is told at once.
      const parsed = await readCsvColumn(file, ALLOCATE_IMPORT_COLUMN);
      if (!parsed.ok) throw new Error(parsed.error);
      return importDevicesToAllocate(customerId, file, o);
    },
    {
      onSuccess: (res) => {
        const known = new Set(rowsRef.current.map((r) => norm(r.serial)));
        const fresh = res.devices.filter((d) => !known.has(norm(d.serialNumber)));
        const added = fresh.map((d): Row => ({ key: norm(d.serialNumber), serial: d.serialNumber, device: d, checked: eligible(d) }));
        rowsRef.current = [...added, ...rowsRef.current];
        setRows((rs) => [...added, ...rs]);
      },
      onError: (err) => toast.error(err instanceof Error && !('data' in err) ? err.message : errorMessage(err)),
    },
  );

  const quotas: Quota[] = (subs.data?.DeviceSubscriptions.Subscriptions ?? []).map((s) => ({
    typeValue: s.Type.Value,
    typeName: s.Type.Name,
    purchased: s.Purchased,
    allocated: s.Allocated,
  }));
  const selected: AllocRow[] = rows
    .filter((r) => r.checked && eligible(r.device))
    .map((r) => ({
      id: r.device!.id,
      etag: r.device!.etag,
      serialNumber: r.serial,
      typeValue: r.device!.type.value,
      typeName: r.device!.type.name,
      eligible: true,
    }));
  const eligibleRows = rows.filter((r) => eligible(r.device));
  const allChecked = eligibleRows.length > 0 && eligibleRows.every((r) => r.checked);

  const allocate = useMutation({
    meta: { silent: true }, // run() reports failures itself
    mutationFn: async ({ force }: { force: boolean }) =>
      allocateDevices({
        devices: selected.map((d) => ({ id: d.id, etag: d.etag, typeValue: d.typeValue })),
        customerId,
        orderNumber: orderNumber.trim() || null,
        force,
      }),
    onSuccess: async () => {
      toast.success(MSG.deviceAllocated);
      setRows([]);
      await qc.invalidateQueries({ queryKey: customerKeys.customer(customerId) });
      tab.navigate(getHref('customerDevices', { customerId }));
    },
  });

  const run = async () => {
    setFailure(null);
    if (!selected.length) {
      toast.error(eligibleRows.length ? MSG.selectOneDevice : MSG.noEligibleAllocation);
      return;
    }
    const exceeded = exceededTypes(selected, quotas);
    const question = allocationConfirmation(orderNumber, exceeded);
    if (question && !(await confirm({ title: 'Allocate Devices', message: question, confirmLabel: 'Allocate' }))) return;
    let err = await attempt(exceeded.length > 0);
    const code = (err as { data?: { Content?: { Code?: string } } } | null)?.data?.Content?.Code;
    // The quota changed meanwhile: the server asks; the same confirmation, then force.
    if (err && errorStatus(err) === 422 && code === CUSTOMER_CODE.allocationExceeds) {
      const names = [...new Set(selected.map((d) => d.typeName))].join(', ');
      if (!(await confirm({ title: 'Allocate Devices', message: CUSTOMER_UI_TEXT.quotaExceeded(names), confirmLabel: 'Allocate' }))) return;
      err = await attempt(true);
    }
    if (err) showFailure(err);
  };
  /** One allocation request: null when it worked, else the error. */
  const attempt = async (force: boolean): Promise<unknown> => {
    try {
      await allocate.mutateAsync({ force });
      return null;
    } catch (e) {
      return e ?? new Error(MSG.allocateFailed);
    }
  };
  const showFailure = (err: unknown) => {
    toast.error(errorStatus(err) === 403 ? MSG.forbidden : MSG.allocateFailed);
    setFailure(errorMessage(err));
    const byId = errorFields(err);
    setRows((rs) => rs.map((r) => ({ ...r, error: r.device ? byId[r.device.id] : undefined })));
  };

  return (
    <Flex direction="column" gap="3" p="4" style={{ height: '100%', minHeight: 0, boxSizing: 'border-box' }}>
      <Heading as="h1" size="5">
        Allocate Devices
      </Heading>
      <Text size="2" color="gray">
        To {customerName}
      </Text>
      <Card size="2">
        <Flex gap="3" align="end" wrap="wrap">
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor="allocate-serial" size="2" weight="medium">
              Serial number
            </Text>
            <Flex gap="2">
              <TextField.Root
                id="allocate-serial"
                ref={inputRef}
                autoFocus
                autoComplete="off"
                maxLength={64}
                value={serial}
                aria-invalid={entryError ? true : undefined}
                aria-describedby={entryError ? 'allocate-serial-error' : undefined}
                onChange={(e) => setSerial(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    addSerial();
                  }
                }}
              />
              <Button variant="soft" onClick={addSerial}>
                Add
              </Button>
            </Flex>
          </Flex>
          <CsvFileInput ref={fileRef} label="Import serial numbers from a CSV file" onFile={(f) => importer.mutate(f)} />
          <ActionButton variant="soft" busy={importer.isPending} onClick={() => fileRef.current?.click()}>
            Import CSV
          </ActionButton>
          <ExportProgressBar job={importer} />
          <Flex direction="column" gap="1">
            <Text as="label" htmlFor="allocate-order" size="2" weight="medium">
              Order number
            </Text>
            <TextField.Root id="allocate-order" maxLength={64} autoComplete="off" value={orderNumber} onChange={(e) => setOrderNumber(e.target.value)} />
          </Flex>
          <ActionButton onClick={() => void run()} busy={allocate.isPending} disabled={!selected.length}>
            Allocate ({formatCount(selected.length)})
          </ActionButton>
        </Flex>
        {entryError && (
          <Text id="allocate-serial-error" size="2" color="red" role="alert">
            {entryError}
          </Text>
        )}
        {notice.repeats.length > 0 && (
          <Flex gap="3" align="start" justify="between" mt="2" data-testid="allocate-repeats">
            <Text size="2" color="amber" role="alert">
              <span>{MSG.deviceAlreadyAdded}</span> <span>{notice.repeats.join(', ')}</span>
            </Text>
            <Button size="1" variant="ghost" onClick={() => setNotice((n) => ({ ...n, repeats: [] }))}>
              Dismiss
            </Button>
          </Flex>
        )}
      </Card>
      {failure && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{failure}</Callout.Text>
        </Callout.Root>
      )}
      <div style={{ flex: '1 1 auto', minHeight: 0, overflow: 'auto' }}>
        <table className="cu-table" aria-label="Devices to allocate">
          <thead>
            <tr>
              <th style={{ width: '2.5rem' }}>
                <input
                  type="checkbox"
                  aria-label="Select all eligible devices"
                  checked={allChecked}
                  disabled={!eligibleRows.length}
                  onChange={(e) => setRows((rs) => rs.map((r) => (eligible(r.device) ? { ...r, checked: e.target.checked } : r)))}
                />
              </th>
              <th>Serial Number</th>
              <th>Type</th>
              <th>Status</th>
              <th>Customer</th>
              <th>Order Number</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={7}>
                  <Text size="2" color="gray">
                    Scan or type serial numbers to add devices.
                  </Text>
                </td>
              </tr>
            )}
            {rows.map((r) => {
              const d = r.device;
              const placeholderRow = d?.etag === NOT_FOUND_ETAG;
              return (
                <tr key={r.key} data-tone={r.error ? 'error' : undefined}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Allocate ${r.serial}`}
                      checked={r.checked}
                      disabled={!eligible(d)}
                      onChange={(e) => setRows((rs) => rs.map((x) => (x.key === r.key ? { ...x, checked: e.target.checked } : x)))}
                    />
                  </td>
                  <td>{r.serial}</td>
                  <td>{d ? (placeholderRow ? '-' : d.type.name) : '…'}</td>
                  <td>
                    {!d ? 'Looking up…' : placeholderRow ? CUSTOMER_UI_TEXT.notFound : d.status.name}
                    {r.error && (
                      <Text as="div" size="1" color="red">
                        {r.error}
                      </Text>
                    )}
                  </td>
                  <td>{d?.customerName ?? '-'}</td>
                  <td>{d?.orderNumber ?? '-'}</td>
                  <td>
                    <Button
                      size="1"
                      variant="ghost"
                      color="gray"
                      aria-label={`Remove ${r.serial}`}
                      onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                    >
                      ✕
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Flex>
  );
}
