// Bulk update (spec document 2 "Bulk update page", §4 Bulk selection, WORKSPACE.md "Scanning
// serials"): the serial field (Add, Enter; a hand-held scanner types into it at full speed),
// CSV upload, and the bulk table (virtualised: thousands of rows stay fast).
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Button, Callout, Flex, Text } from '@radix-ui/themes';
import { DataTable } from '../../ui/data-table/data-table';
import type { DataTableColumn } from '../../ui/data-table/types';
import { PageFrame } from '../../workspace/page-frame';
import { useTab } from '../../workspace/tab-context';
import { useFocusWhenShown } from '../../workspace/focus-when-shown';
import {
  bulkAtom,
  bulkSoundsAtom,
  isLookingUp,
  isPlaceholder,
  lastAddedAtom,
  nextSelection,
  pendingRows,
  removeIds,
  selectableCount,
  type BulkDevice,
} from '../../state/bulk';
import { MSG, PAGE_TITLES } from '../../../shared/messages';
import { deviceTypeDisplayName, statusDisplayName } from '../../../shared/codes';
import { addSerials, BULK_MSG, bulkQueue, bulkWarningsAtom, clearBulkList, lastScanAtom, pendingScansAtom, queueStatusAtom, scanSerial } from './bulk-service';
import { readCsvColumn } from '../../ui/serials/csv';
import { BulkActions } from './bulk-actions';
import { BULK_FOCUS_EVENT } from './events';
import { prepareScanSounds } from './sounds';
import { serialKeyAction } from './serial-keys';
import { SCAN_DEFAULTS } from '../../keyboard/scanner';
import './bulk.css';
import { formatCount } from '../../../shared/numbers';
import { ActionButton } from '../../ui/action-button';
import { ActionCheckbox } from '../../ui/action-checkbox';

const SPLIT = /[\s,;]+/;
/** Spec §4: placeholder rows (unknown serials) cannot be selected: no checkbox, not in select-all. Nor can rows still being looked up. */
const canSelect = (d: BulkDevice) => !isPlaceholder(d) && !isLookingUp(d);

export function BulkUpdatePage() {
  const tab = useTab();
  const { setTitle } = tab;
  useEffect(() => setTitle(PAGE_TITLES.bulkUpdate), [setTitle]);
  useEffect(() => void bulkQueue(), []);

  const [sounds, setSounds] = useAtom(bulkSoundsAtom);
  useEffect(() => {
    if (!sounds) return;
    const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(prepareScanSounds, { timeout: 2000 }) : null;
    const timer = idle === null ? setTimeout(prepareScanSounds, 200) : null;
    return () => {
      if (idle !== null) cancelIdleCallback(idle);
      if (timer !== null) clearTimeout(timer);
    };
  }, [sounds]);
  const [csvError, setCsvError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const pageRef = useRef<HTMLDivElement>(null);
  // The next scan goes to the field when the tab is shown (not when one of the page's controls is pressed).
  useFocusWhenShown(tab.active, inputRef, pageRef);
  useEffect(() => {
    const focus = () => inputRef.current?.focus();
    window.addEventListener(BULK_FOCUS_EVENT, focus);
    return () => window.removeEventListener(BULK_FOCUS_EVENT, focus);
  }, []);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const r = await readCsvColumn(file, BULK_MSG.csvColumn);
    if (fileRef.current) fileRef.current.value = '';
    if (!r.ok) {
      setCsvError(r.error);
      return;
    }
    setCsvError(null);
    addSerials(r.values);
    inputRef.current?.focus();
  };

  // Each part below reads only the atoms it shows, so a scan (a new "looking up" row) re-renders
  // the table and the queue notice, not the header, the warnings or the actions.
  const fieldId = `${tab.tabId}-bulk-serial`;
  return (
    <PageFrame
      title={PAGE_TITLES.bulkUpdate}
      rootRef={pageRef}
      actions={
        <Text as="label" size="2">
          <Flex gap="2" align="center">
            <ActionCheckbox checked={sounds} onCheckedChange={setSounds} />
            {BULK_MSG.soundsLabel}
          </Flex>
        </Text>
      }
    >
      <SerialField fieldId={fieldId} inputRef={inputRef}>
        <Button type="button" variant="soft" onClick={() => fileRef.current?.click()}>
          Upload CSV
        </Button>
        <input ref={fileRef} type="file" accept=".csv,text/csv" hidden aria-label="CSV file" onChange={(e) => void onFile(e.target.files?.[0])} />
      </SerialField>
      {csvError && (
        <Callout.Root color="red" role="alert" size="1">
          <Callout.Text>{csvError}</Callout.Text>
        </Callout.Root>
      )}
      <QueueNotice />
      <BulkWarnings />
      <BulkToolbar />
      <div style={{ flex: '1 1 auto', minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <BulkTable keyboardActive={tab.active} />
      </div>
    </PageFrame>
  );
}

/** Scans waiting for a server that does not answer (or many waiting): how many, and that they are kept. */
function QueueNotice() {
  const status = useAtomValue(queueStatusAtom);
  if (!(status.pending > 0 && (status.failing || status.pending > 20))) return null;
  return (
    <Callout.Root color={status.failing ? 'red' : 'blue'} size="1" role="status" data-testid="bulk-queue">
      <Callout.Text>
        {status.failing ? `${MSG.bulkLookupFailed} ` : ''}
        {BULK_MSG.waiting(status.pending)}
      </Callout.Text>
    </Callout.Root>
  );
}

/** The warnings, in order: which list, its text, its test id. */
const WARNINGS = [
  ['notFound', BULK_MSG.notFound, 'bulk-not-found'],
  ['already', BULK_MSG.alreadyAdded, 'bulk-already'],
] as const;

/** The sticky 'not found' and the persistent 'already added' warnings, each with Dismiss. */
function BulkWarnings() {
  const [warnings, setWarnings] = useAtom(bulkWarningsAtom);
  return (
    <>
      {WARNINGS.map(
        ([key, text, testId]) =>
          warnings[key].length > 0 && (
            <Callout.Root key={key} color="amber" size="1" data-testid={testId}>
              <Flex align="start" justify="between" gap="3">
                <Callout.Text>{text(warnings[key])}</Callout.Text>
                <Button size="1" variant="ghost" onClick={() => setWarnings((w) => ({ ...w, [key]: [] }))}>
                  Dismiss
                </Button>
              </Flex>
            </Callout.Root>
          ),
      )}
    </>
  );
}

/** The counts and the actions on the selection: they change when a batch answers, not per scan. */
function BulkToolbar() {
  const [bulk, setBulk] = useAtom(bulkAtom);
  const listed = bulk.list.length;
  const selectedDevices = useMemo(() => bulk.selected.map((id) => bulk.devices[id]).filter((d): d is BulkDevice => !!d), [bulk.selected, bulk.devices]);
  return (
    <Flex align="center" justify="between" gap="3" wrap="wrap">
      <Text size="2" data-testid="bulk-counts">
        {formatCount(listed)} device{listed === 1 ? '' : 's'} on the bulk list, {formatCount(bulk.selected.length)} selected
      </Text>
      <Flex gap="2" wrap="wrap">
        <BulkActions selected={selectedDevices} />
        <ActionButton variant="soft" color="gray" disabled={!bulk.selected.length} onClick={() => setBulk((s) => removeIds(s, s.selected))}>
          Remove selected
        </ActionButton>
        <ActionButton variant="soft" color="red" disabled={!listed} onClick={() => clearBulkList()}>
          {MSG.clearBulkList}
        </ActionButton>
      </Flex>
    </Flex>
  );
}

const rowKey = (d: BulkDevice) => d.id;
/**
 * A scan's row is the same line while it is looked up and once filled (or marked not found). The
 * serial as it is (no two rows share one, even in another case); a scan typed in another case than
 * the server's is drawn anew when filled.
 */
const renderKey = (d: BulkDevice) => d.serialNumber;
const EMPTY_MESSAGE = 'No devices on the bulk list. Scan or type a serial number.';

/**
 * A row's serial, marked for screen readers while it is the last added. The cell reads the last
 * added row itself: when a batch answers, only the serial cells in view re-render, not every row.
 */
const SerialCell = memo(function SerialCell({ id, serial }: { id: string; serial: string }) {
  const last = useAtomValue(lastAddedAtom) === id;
  return (
    <span>
      {serial}
      {last && <span className="bulk-last-added lw-sr-only"> (last added)</span>}
    </span>
  );
});

const StatusCell = memo(function StatusCell({ kind, name }: { kind: 'not-found' | 'looking-up' | 'device'; name: string }) {
  if (kind === 'not-found') return <span className="bulk-not-found">Not found</span>;
  if (kind === 'looking-up') return <span className="bulk-looking-up">{name}</span>;
  return <>{statusDisplayName(name)}</>;
});

const RemoveButton = memo(function RemoveButton({ id, serial }: { id: string; serial: string }) {
  const setBulk = useSetAtom(bulkAtom);
  return (
    <Button size="1" variant="ghost" color="red" aria-label={`Remove ${serial}`} onClick={() => setBulk((s) => removeIds(s, [id]))}>
      Remove
    </Button>
  );
});

/** The bulk table's columns: one array for the page's life (a new one would re-render every row). */
const COLUMNS: DataTableColumn<BulkDevice>[] = [
  {
    id: 'serial',
    header: 'Serial Number',
    width: 'minmax(140px, 1.3fr)',
    cell: (d) => <SerialCell id={d.id} serial={d.serialNumber} />,
  },
  { id: 'type', header: 'Type', width: 'minmax(90px, 0.8fr)', cell: (d) => deviceTypeDisplayName(d.type) },
  { id: 'imei', header: 'IMEI', width: 'minmax(140px, 1fr)', cell: (d) => d.imei ?? '' },
  {
    id: 'status',
    header: 'Status',
    width: 'minmax(110px, 1fr)',
    cell: (d) => <StatusCell kind={isPlaceholder(d) ? 'not-found' : isLookingUp(d) ? 'looking-up' : 'device'} name={d.status.name} />,
  },
  { id: 'order', header: 'Order Number', width: 'minmax(110px, 1fr)', cell: (d) => d.orderNumber ?? '' },
  { id: 'customer', header: 'Customer', cell: (d) => d.customerName ?? '' },
  {
    id: 'remove',
    header: 'Remove',
    width: '100px',
    align: 'end',
    cell: (d) => (isLookingUp(d) ? null : <RemoveButton id={d.id} serial={d.serialNumber} />),
  },
];

/**
 * The bulk table: the list (newest first) with the scans still waiting for the server on top as
 * "looking up" rows. Virtualised (only the rows in view are in the DOM), and its cells are memoised:
 * a scan prepends one row, and the rows already shown only move down.
 */
const BulkTable = memo(function BulkTable({ keyboardActive }: { keyboardActive: boolean }) {
  const bulk = useAtomValue(bulkAtom);
  const setBulk = useSetAtom(bulkAtom);
  const pending = useAtomValue(pendingScansAtom);

  const listed = useMemo(() => bulk.list.map((id) => bulk.devices[id]).filter((d): d is BulkDevice => !!d), [bulk.list, bulk.devices]);
  // Scans waiting for the server show at once, in the place they will take, as "looking up" rows.
  const waiting = useMemo(() => pendingRows(bulk, pending), [bulk, pending]);
  const rows = useMemo(() => (waiting.length ? [...waiting, ...listed] : listed), [waiting, listed]);
  const selectedKeys = useMemo(() => new Set(bulk.selected), [bulk.selected]);
  // The select-all box from counts the list keeps (selected rows are selectable rows on the list).
  const selectable = selectableCount(bulk);
  const allSelected = selectable > 0 && bulk.selected.length === selectable;
  const onSelectionChange = useCallback((keys: Set<string>) => setBulk((s) => nextSelection(s, keys)), [setBulk]);

  return (
    <DataTable<BulkDevice>
      label="Bulk list"
      columns={COLUMNS}
      rows={rows}
      getRowKey={rowKey}
      getRenderKey={renderKey}
      totalCount={rows.length}
      selectable
      canSelect={canSelect}
      selectedKeys={selectedKeys}
      onSelectionChange={onSelectionChange}
      allSelected={allSelected}
      keyboardActive={keyboardActive}
      emptyMessage={EMPTY_MESSAGE}
      minWidth="820px"
    />
  );
});

/**
 * The serial field with Add, and the outcome of the last scan under it. Its own component, and
 * the field is uncontrolled (its text lives in the DOM, read on Enter): a scanner types hundreds
 * of keys a second, and a key re-renders nothing. Enter adds at once, and a scanner's characters
 * are appended by the field itself (serial-keys.ts) when its keys pause: the browser's own per-key
 * editing is what made a burst's rows wait.
 */
function SerialField({ fieldId, inputRef, children }: { fieldId: string; inputRef: RefObject<HTMLInputElement | null>; children: ReactNode }) {
  const [fieldError, setFieldError] = useState<string | null>(null);
  const lastScan = useAtomValue(lastScanAtom);
  /** The time of the field's previous key (its own time), for the scanner gap. */
  const lastKeyAt = useRef(-Infinity);
  /**
   * A burst's characters taken by the field and not yet in it. They go in when the burst pauses
   * (no key for the scanner gap): a scan that ends with Enter is read from here and never drawn.
   */
  const typed = useRef('');
  const showTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** When the last character was taken (performance.now()): the timer is set once, not per key. */
  const takenAt = useRef(0);

  /** The characters taken and not yet in the field (none are left waiting). */
  const take = () => {
    if (showTimer.current !== null) clearTimeout(showTimer.current);
    showTimer.current = null;
    const text = typed.current;
    typed.current = '';
    return text;
  };
  /** Puts the characters taken so far at the end of the field (the caret stays at the end if it was there). */
  const flush = () => {
    const text = take();
    const field = inputRef.current;
    if (!text || !field) return;
    const end = field.value.length;
    field.setRangeText(text, end, end, field.selectionStart === end && field.selectionEnd === end ? 'end' : 'preserve');
  };
  /** Shows the characters taken once no key came for the scanner gap (else waits for the rest of it). */
  const showWhenPaused = () => {
    const left = takenAt.current + SCAN_DEFAULTS.maxGapMs - performance.now();
    if (left > 1) showTimer.current = setTimeout(showWhenPaused, left);
    else flush();
  };
  useEffect(
    () => () => {
      if (showTimer.current !== null) clearTimeout(showTimer.current);
    },
    [],
  );

  const submit = () => {
    const field = inputRef.current;
    // What the field shows plus what it took since the last frame (never written: the field is cleared).
    const parts = ((field?.value ?? '') + take()).split(SPLIT).filter(Boolean);
    if (!parts.length) {
      setFieldError(MSG.serialRequired);
      if (field && document.activeElement !== field) field.focus();
      return;
    }
    if (fieldError !== null) setFieldError(null);
    for (const p of parts) scanSerial(p);
    if (field) {
      if (field.value) field.value = '';
      if (document.activeElement !== field) field.focus();
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const field = e.currentTarget;
    const time = e.timeStamp > 0 ? e.timeStamp : performance.now();
    const action = serialKeyAction(
      { key: e.key, time, modified: e.ctrlKey || e.altKey || e.metaKey, repeat: e.repeat, composing: e.nativeEvent.isComposing || e.keyCode === 229 },
      { length: field.value.length, selectionStart: field.selectionStart, selectionEnd: field.selectionEnd },
      lastKeyAt.current,
    );
    lastKeyAt.current = time;
    if (action === 'browser') {
      // The browser's key acts on the whole text.
      flush();
      return;
    }
    e.preventDefault();
    if (action === 'submit') submit();
    else {
      // Setting the field's text moves its caret, and the browser then lays the page out and
      // draws a frame: not per key, nor per frame while the scanner types, but once the keys
      // pause. A scanner's Enter comes first, so its serial goes to the list without being drawn.
      typed.current += e.key;
      takenAt.current = performance.now();
      showTimer.current ??= setTimeout(showWhenPaused, SCAN_DEFAULTS.maxGapMs);
      if (fieldError !== null) setFieldError(null);
    }
  };

  return (
    <>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Flex gap="2" align="end" wrap="wrap">
          <Flex direction="column" gap="1">
            <label htmlFor={fieldId}>Serial Number</label>
            <input
              id={fieldId}
              ref={inputRef}
              className="lw-input"
              style={{ width: '22rem', maxWidth: '70vw' }}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={!!fieldError || undefined}
              aria-describedby={`${fieldId}-msg`}
              onKeyDown={onKeyDown}
              onBlur={flush}
              onChange={() => {
                if (fieldError !== null) setFieldError(null);
              }}
              onPaste={(e) => {
                flush();
                const text = e.clipboardData.getData('text');
                const parts = text.split(SPLIT).filter(Boolean);
                if (parts.length > 1) {
                  e.preventDefault();
                  bulkQueue().enqueueMany(parts);
                }
              }}
            />
          </Flex>
          <Button type="submit">Add</Button>
          {children}
        </Flex>
      </form>
      <div id={`${fieldId}-msg`} role="status" aria-live="polite" className="bulk-feedback" data-kind={fieldError ? 'not-found' : lastScan?.kind}>
        {fieldError ??
          (lastScan &&
            (lastScan.kind === 'added'
              ? `Added ${lastScan.serial}.`
              : lastScan.kind === 'already'
                ? `${lastScan.serial}: ${MSG.deviceAlreadyAdded}`
                : `${lastScan.serial}: not found, added as a placeholder.`))}
      </div>
    </>
  );
}
