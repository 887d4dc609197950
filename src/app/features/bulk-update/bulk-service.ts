// The one scan queue of the app, wired to the bulk atoms: scans (the serial field, a scanner burst
// elsewhere, the "add serial" command, CSV rows) all go through it, so they resolve in order and
// survive reload and network drops. Outcomes: added / already added / not found (placeholder row),
// each with its sound and the spec's warnings.
import { atom } from 'jotai';
import { appStore } from '../../state/store';
import {
  bulkAtom,
  bulkWarningsAtom,
  clearBulk,
  bulkSoundsAtom,
  isPlaceholder,
  isRepeatScan,
  lastAddedAtom,
  listIndex,
  placeholderFor,
  serialKey,
  withAddedRows,
  type BulkDevice,
  type BulkState,
} from '../../state/bulk';
import { getDevicesBySerials } from './api';
import { ScanQueue, type PendingScan, type QueueStatus } from './scan-queue';
import { playScanSound, type ScanSound } from './sounds';
import { formatCount } from '../../../shared/numbers';
import { SERIAL_MAX } from '../../../shared/schemas/devices';

export const BULK_MSG = {
  notFound: (serials: string[]) => `Devices with serial numbers ${serials.join(', ')} were not found but are added to the list.`,
  alreadyAdded: (serials: string[]) => `Devices with serial numbers ${serials.join(', ')} are already added and will be omitted.`,
  waiting: (n: number) => `${formatCount(n)} scanned serial${n === 1 ? '' : 's'} waiting for the server. They are kept and will be added when it answers.`,
  soundsLabel: 'Scan sounds',
  csvColumn: 'SerialNumber',
};

export type ScanResult = { serial: string; kind: ScanSound; seq: number };

export const queueStatusAtom = atom<QueueStatus>({ pending: 0, busy: false, failing: false });
/** Scans waiting for the server, oldest first: the bulk table shows them at once as "looking up" rows. */
export const pendingScansAtom = atom<PendingScan[]>([]);
/** The outcome of the last scan applied (the field shows it). */
export const lastScanAtom = atom<ScanResult | null>(null);

export const HIGHLIGHT_MS = 5000;
/**
 * Lookups of a burst start at most this often (ms). Each answer is applied, stored (the whole list,
 * in localStorage) and drawn; a scanner's scans ~60 ms apart then come back a few per batch. Rows
 * show at once as "looking up" either way; a scan after a pause is looked up at once.
 */
export const LOOKUP_SPACING_MS = 150;
let highlightTimer: ReturnType<typeof setTimeout> | null = null;
let seq = 0;

type Scan = PendingScan;

/**
 * Applies a resolved batch to the bulk state, in scan order: the same result as adding each scan
 * in turn (addOne; a CSV's run of rows: addMany, which selects everything). Single scans cost what
 * the batch adds, not what the list holds: the list's index answers "already on the list", and the
 * new state is the old one with rows on top (withAddedRows: stored as those rows only). A CSV run
 * selects the whole list (one pass over it). Only repeats: the state itself comes back (nothing to write).
 */
export function applyBatch(s: BulkState, scans: Scan[], results: BulkDevice[]) {
  if (results.length !== scans.length) throw new Error(`applyBatch: ${scans.length} scans but ${results.length} results`);
  const onList = listIndex(s).byKey;
  const addedKeys = new Set<string>();
  const addedIds = new Set<string>();
  /** Rows added, oldest first, in blocks: a scan is a block of one, a CSV run a block in file order. */
  const blocks: string[][] = [];
  const addedRows: BulkDevice[] = [];
  /** Devices (not placeholders) added by single scans, oldest first. */
  const picked: string[] = [];
  let selectAll = false;
  const outcomes: { serial: string; kind: ScanSound; id: string | null }[] = [];
  const add = (d: BulkDevice): boolean => {
    const key = serialKey(d.serialNumber);
    if (s.devices[d.id] || addedIds.has(d.id) || onList.has(key) || addedKeys.has(key)) return false;
    addedIds.add(d.id);
    addedKeys.add(key);
    addedRows.push(d);
    return true;
  };
  let i = 0;
  while (i < scans.length) {
    if (scans[i]?.many) {
      // A CSV's rows: merged (new ones first, in file order) and everything selected.
      const block: string[] = [];
      for (; i < scans.length && scans[i]?.many; i++) {
        const d = results[i] as BulkDevice; // one result per scan
        const added = add(d);
        if (added) block.push(d.id);
        outcomes.push({ serial: (scans[i] as Scan).serial, kind: !added ? 'already' : isPlaceholder(d) ? 'not-found' : 'added', id: added ? d.id : null });
      }
      if (block.length) blocks.push(block);
      selectAll = true;
    } else {
      const d = results[i] as BulkDevice;
      const added = add(d);
      if (added) {
        blocks.push([d.id]);
        if (!isPlaceholder(d)) picked.push(d.id);
      }
      outcomes.push({ serial: (scans[i] as Scan).serial, kind: !added ? 'already' : isPlaceholder(d) ? 'not-found' : 'added', id: added ? d.id : null });
      i++;
    }
  }
  if (!blocks.length && !selectAll) return { state: s, outcomes };
  const ids = blocks.reverse().flat();
  if (!selectAll) return { state: withAddedRows(s, { ids, selected: picked.reverse(), devices: addedRows }), outcomes };
  const rows = { ...s.devices };
  for (const d of addedRows) rows[d.id] = d;
  const list = [...ids, ...s.list];
  const selected = list.filter((id) => !isPlaceholder(rows[id]));
  return { state: { list, selected, devices: rows }, outcomes };
}

let queue: ScanQueue<BulkDevice> | null = null;

/** The same scans waiting (the queue only appends at the end and drops from the front). */
const samePending = (a: PendingScan[], b: PendingScan[]) =>
  a.length === b.length &&
  (a.length === 0 || (a[0]?.serial === b[0]?.serial && a[0]?.at === b[0]?.at && a.at(-1)?.serial === b.at(-1)?.serial && a.at(-1)?.at === b.at(-1)?.at));

/** The app's scan queue (created on first use; resumes scans left from before a reload). */
export function bulkQueue(store = appStore): ScanQueue<BulkDevice> {
  if (queue) return queue;
  queue = new ScanQueue<BulkDevice>({
    storage: localStorage,
    minIntervalMs: LOOKUP_SPACING_MS,
    // Serials already on the list (or earlier in the batch) need no lookup; nor does one longer than
    // any serial can be (scans run together, a wrong barcode): the server refuses the whole batch
    // for it, so it would hold every scan after it. It is not found (a placeholder row, the warning).
    resolve: async (serials, signal) => {
      const state = store.get(bulkAtom);
      const known = new Map<string, BulkDevice>();
      const onList = listIndex(state).byKey;
      const ask: string[] = [];
      const asked = new Set<string>();
      for (const s of serials) {
        const key = s.trim().toUpperCase();
        const id = onList.get(key);
        const listed = id ? state.devices[id] : undefined;
        if (listed) known.set(key, listed);
        else if (s.trim().length > SERIAL_MAX) known.set(key, placeholderFor(s.trim()));
        else if (!asked.has(key)) {
          asked.add(key);
          ask.push(s);
        }
      }
      const found = await getDevicesBySerials(ask, signal);
      // get-list-by-serials answers one device (or placeholder) per distinct serial, in order.
      ask.forEach((s, k) => {
        const d = found[k];
        if (d) known.set(s.trim().toUpperCase(), d);
      });
      return serials.map((s) => known.get(s.trim().toUpperCase())!);
    },
    apply: (scans, results) => {
      const before = store.get(bulkAtom);
      const { state, outcomes } = applyBatch(before, scans as Scan[], results);
      // Only repeats: nothing to write (a 5,000-row list is ~1.5 MB of JSON).
      if (state !== before) store.set(bulkAtom, state);
      const notFound = outcomes.filter((o) => o.kind === 'not-found').map((o) => o.serial);
      const already = outcomes.filter((o) => o.kind === 'already').map((o) => o.serial);
      if (notFound.length || already.length) {
        const w = store.get(bulkWarningsAtom);
        store.set(bulkWarningsAtom, { notFound: [...w.notFound, ...notFound], already: [...w.already, ...already] });
      }
      const lastAdded = [...outcomes].reverse().find((o) => o.id);
      if (lastAdded?.id) {
        store.set(lastAddedAtom, lastAdded.id);
        if (highlightTimer) clearTimeout(highlightTimer);
        highlightTimer = setTimeout(() => store.set(lastAddedAtom, null), HIGHLIGHT_MS);
      }
      const last = outcomes[outcomes.length - 1];
      if (last) store.set(lastScanAtom, { serial: last.serial, kind: last.kind, seq: ++seq });
      if (store.get(bulkSoundsAtom) && outcomes.length) {
        const kinds = new Set(outcomes.map((o) => o.kind));
        playScanSound(kinds.has('not-found') ? 'not-found' : kinds.has('already') ? 'already' : 'added');
      }
    },
    // Only real changes re-render the page: a scanner burst reports several times per scan.
    onStatus: (st, pending) => {
      const was = store.get(queueStatusAtom);
      if (was.pending !== st.pending || was.busy !== st.busy || was.failing !== st.failing) store.set(queueStatusAtom, st);
      if (!samePending(store.get(pendingScansAtom), pending)) store.set(pendingScansAtom, pending);
    },
  });
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => queue?.kick());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') queue?.kick();
    });
  }
  store.set(queueStatusAtom, queue.status());
  store.set(pendingScansAtom, queue.pending());
  queue.kick();
  return queue;
}

/** Records outcomes known without the server (repeats): the warning, the field's feedback, the sound. */
function showRepeat(store: typeof appStore, serial: string) {
  const w = store.get(bulkWarningsAtom);
  store.set(bulkWarningsAtom, { ...w, already: [...w.already, serial] });
  store.set(lastScanAtom, { serial, kind: 'already', seq: ++seq });
  if (store.get(bulkSoundsAtom)) playScanSound('already');
}

/**
 * A scanned or typed serial: onto the queue (persisted at once; its row shows "looking up" until
 * its batch answers). A repeat (on the list already, or waiting in the queue) needs no server: it
 * is reported at once and not queued.
 */
export function scanSerial(serial: string, store = appStore) {
  const s = serial.trim();
  if (!s) return;
  const q = bulkQueue(store);
  if (isRepeatScan(store.get(bulkAtom), store.get(pendingScansAtom), s)) showRepeat(store, s);
  else q.enqueue(s);
}

/** Many serials at once (CSV): merged without duplicates, everything selected. */
export function addSerials(serials: readonly string[], store = appStore) {
  bulkQueue(store).enqueueMany(serials, true);
}

export { bulkWarningsAtom };

export function clearBulkList(store = appStore) {
  clearBulk(store);
}
