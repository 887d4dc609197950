// The bulk update state (spec §3 "Bulk update state", §4 "Bulk selection"): two lists of device
// ids, the bulk list and the selected list, persisted locally so a reload keeps them. The rows'
// display data is kept beside them (same storage) so the list shows at once after a reload, also
// while the server is unreachable. Unknown serials become placeholder rows (status and type
// Unknown, etag 'not-found') whose id is `not-found:<serial>`; they cannot be selected.
// The rules are plain functions (tests/unit/bulk/rules.test.ts); the atoms apply them.
import { atom, type SetStateAction } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { isSerialFormat } from '../../shared/serials';

export type BulkDevice = {
  id: string;
  etag: string;
  serialNumber: string;
  imei?: string | null;
  type: { name: string; value: number };
  status: { name: string; value: number };
  orderNumber?: string | null;
  customerName?: string | null;
  isUserAssigned?: boolean;
};

export type BulkState = {
  /** Device ids on the bulk list, newest first. */
  list: string[];
  /** Selected device ids (a subset of `list`, never a placeholder). */
  selected: string[];
  /** Row data by id. */
  devices: Record<string, BulkDevice>;
};

export const EMPTY_BULK: BulkState = { list: [], selected: [], devices: {} };
export const NOT_FOUND_ETAG = 'not-found';
export const PLACEHOLDER_PREFIX = 'not-found:';

export const isPlaceholder = (d: Pick<BulkDevice, 'etag'> | undefined) => !!d && d.etag === NOT_FOUND_ETAG;

/** The placeholder row of a serial the server does not know (spec: status Unknown, type Unknown, etag 'not-found'). */
export function placeholderFor(serial: string): BulkDevice {
  return {
    id: PLACEHOLDER_PREFIX + serial,
    etag: NOT_FOUND_ETAG,
    serialNumber: serial,
    type: { name: 'Unknown', value: 0 },
    status: { name: 'Unknown', value: 0 },
  };
}

/** How serials compare (a scanner or a person may differ in case and surrounding spaces). */
export const serialKey = (serial: string) => serial.trim().toUpperCase();
const norm = serialKey;

/**
 * What the bulk list knows of its serials: the id holding each serial (by serialKey) and how many
 * rows are placeholders. Built once per list (keyed by the list array itself: a selection change
 * keeps it) and handed on to the next list when scans only add rows (withAddedRows), so a scan's
 * repeat check, its "looking up" row and its batch never walk the whole list.
 */
export type ListIndex = { readonly byKey: ReadonlyMap<string, string>; readonly placeholders: number };
type MutableIndex = { byKey: Map<string, string>; placeholders: number };
const indexes = new WeakMap<readonly string[], MutableIndex>();
/** Which list may add rows to a `devices` record in place (see withAddedRows). */
const devicesOwner = new WeakMap<Record<string, BulkDevice>, readonly string[]>();

function buildIndex(s: BulkState): MutableIndex {
  const byKey = new Map<string, string>();
  let placeholders = 0;
  for (const id of s.list) {
    const d = s.devices[id];
    byKey.set(norm(d?.serialNumber ?? ''), id);
    if (isPlaceholder(d)) placeholders++;
  }
  return { byKey, placeholders };
}

/** The list's index (built on first use for this list, O(list); then O(1)). */
export function listIndex(s: BulkState): ListIndex {
  let ix = indexes.get(s.list);
  if (!ix) {
    ix = buildIndex(s);
    indexes.set(s.list, ix);
  }
  return ix;
}

/** Rows the list can select: every row but the placeholders (kept by the index, not counted per render). */
export const selectableCount = (s: BulkState) => s.list.length - listIndex(s).placeholders;

/**
 * The state after new rows go on top of the list (newest first), none of them on it yet: the
 * index moves to the new list (O(rows added), not O(list)), and the state remembers what was
 * added so storing it writes only those rows (see bulkAtom).
 */
export function withAddedRows(s: BulkState, added: Added): BulkState {
  const ix = indexes.get(s.list) ?? buildIndex(s);
  indexes.delete(s.list);
  const list = added.ids.length ? [...added.ids, ...s.list] : s.list;
  // The rows' data: copying a 5,000-key record costs more than the whole rest of a scan. The newest
  // list owns its record and adds to it in place (an older state keeps seeing the rows of its own
  // list: extra keys change nothing it shows); a state whose record is not its own copies it once.
  const devices = devicesOwner.get(s.devices) === s.list ? s.devices : { ...s.devices };
  for (const d of added.devices) devices[d.id] = d;
  devicesOwner.set(devices, list);
  for (const d of added.devices) {
    ix.byKey.set(norm(d.serialNumber), d.id);
    if (isPlaceholder(d)) ix.placeholders++;
  }
  indexes.set(list, ix);
  const next: BulkState = { list, selected: added.selected.length ? [...added.selected, ...s.selected] : s.selected, devices };
  appended.set(next, { from: s, added });
  return next;
}

export const LOOKING_UP_ETAG = 'looking-up';
export const LOOKING_UP_PREFIX = 'looking-up:';
/** A row shown at once for a scan the server has not answered yet; filled when its batch answers. */
export const isLookingUp = (d: Pick<BulkDevice, 'etag'> | undefined) => !!d && d.etag === LOOKING_UP_ETAG;

/** The "looking up" row of a scanned serial (not selectable, no data yet). */
export function lookingUpRow(serial: string): BulkDevice {
  return {
    id: LOOKING_UP_PREFIX + norm(serial),
    etag: LOOKING_UP_ETAG,
    serialNumber: serial.trim(),
    type: { name: '', value: 0 },
    status: { name: 'Looking up…', value: 0 },
  };
}

/**
 * The rows of scans still waiting for the server, in the place they will take (newest first; a
 * CSV's rows in file order), without serials already on the list or earlier in the queue.
 */
/** Each waiting scan keeps its "looking up" row object while it waits: its row is not drawn again per scan. */
const waitingRows = new WeakMap<object, BulkDevice>();
function waitingRow(p: { serial: string }): BulkDevice {
  let row = waitingRows.get(p);
  if (!row) {
    row = lookingUpRow(p.serial);
    waitingRows.set(p, row);
  }
  return row;
}

export function pendingRows(s: BulkState, pending: readonly { serial: string; many?: boolean }[]): BulkDevice[] {
  if (!pending.length) return [];
  const onList = listIndex(s).byKey;
  const seen = new Set<string>();
  let rows: BulkDevice[] = [];
  let block: BulkDevice[] = [];
  const flush = () => {
    if (block.length) rows = [...block, ...rows];
    block = [];
  };
  for (const p of pending) {
    const key = norm(p.serial);
    if (!key || seen.has(key) || onList.has(key)) continue;
    seen.add(key);
    if (p.many) block.push(waitingRow(p));
    else {
      flush();
      rows = [waitingRow(p), ...rows];
    }
  }
  flush();
  return rows;
}

/** Whether a scan of `serial` now is a repeat: on the list already, or waiting in the queue. */
export function isRepeatScan(s: BulkState, pending: readonly { serial: string }[], serial: string): boolean {
  const key = norm(serial);
  return idOfSerial(s, serial) !== null || pending.some((p) => norm(p.serial) === key);
}

/** The id on the list holding this serial (a device or its placeholder), or null. */
export function idOfSerial(s: BulkState, serial: string): string | null {
  return listIndex(s).byKey.get(norm(serial)) ?? null;
}

/** Adding one device puts it first in both the bulk list and the selected list (placeholders: bulk list only). Already there: unchanged. */
export function addOne(s: BulkState, d: BulkDevice): { state: BulkState; added: boolean } {
  if (s.devices[d.id] || idOfSerial(s, d.serialNumber)) return { state: s, added: false };
  return {
    added: true,
    state: {
      list: [d.id, ...s.list],
      selected: isPlaceholder(d) ? s.selected : [d.id, ...s.selected],
      devices: { ...s.devices, [d.id]: d },
    },
  };
}

/**
 * Adding many merges without duplicates (new ones first, in the order given) and selects all
 * (every selectable row of the list). Returns the serials already on the list (omitted).
 */
export function addMany(s: BulkState, ds: readonly BulkDevice[]): { state: BulkState; added: BulkDevice[]; omitted: string[] } {
  const devices = { ...s.devices };
  const serials = new Set(s.list.map((id) => norm(devices[id]?.serialNumber ?? '')));
  const added: BulkDevice[] = [];
  const omitted: string[] = [];
  for (const d of ds) {
    const key = norm(d.serialNumber);
    if (devices[d.id] || serials.has(key)) {
      omitted.push(d.serialNumber);
      continue;
    }
    serials.add(key);
    devices[d.id] = d;
    added.push(d);
  }
  const list = [...added.map((d) => d.id), ...s.list];
  return { state: { list, selected: list.filter((id) => !isPlaceholder(devices[id])), devices }, added, omitted };
}

/** Removing removes from both lists. */
export function removeIds(s: BulkState, ids: readonly string[]): BulkState {
  const gone = new Set(ids);
  const devices = { ...s.devices };
  for (const id of gone) delete devices[id];
  return { list: s.list.filter((id) => !gone.has(id)), selected: s.selected.filter((id) => !gone.has(id)), devices };
}

/** Selection changes keep only selectable ids that are on the list, in list order. */
export function setSelected(s: BulkState, ids: Iterable<string>): BulkState {
  const want = new Set(ids);
  return { ...s, selected: s.list.filter((id) => want.has(id) && !isPlaceholder(s.devices[id])) };
}

/**
 * The table's selection change. Placeholders cannot be selected, so with placeholders on the list
 * "select all" never reaches every row: a select-all asked while every selectable row is already
 * selected means "select none".
 */
export function nextSelection(s: BulkState, keys: ReadonlySet<string>): BulkState {
  const selectable = s.list.filter((id) => !isPlaceholder(s.devices[id])).length;
  if (keys.size === s.list.length && s.list.length > selectable && s.selected.length === selectable) return { ...s, selected: [] };
  return setSelected(s, keys);
}

/** Replaces a row's data (after a bulk change: new etag, status ...). */
export function updateDevices(s: BulkState, ds: readonly BulkDevice[]): BulkState {
  const devices = { ...s.devices };
  for (const d of ds) if (devices[d.id]) devices[d.id] = d;
  return { ...s, devices };
}

/** Select-all counts as checked when the selected ids on the page equal the page size or the total count. */
export function isAllSelected(selectedOnPage: number, pageSize: number, totalCount: number): boolean {
  return selectedOnPage > 0 && (selectedOnPage === pageSize || selectedOnPage === totalCount);
}

export const BULK_KEY = 'bulk.state';
/**
 * Rows scans added since the list was last stored whole (JSON: Added[], oldest first). A 5,000-row
 * list is ~1.5 MB of JSON: storing it whole after every batch of a scanner burst made each scan's
 * work grow with the list. A batch of scans appends its rows here instead (stored before its scans
 * leave the queue, so a reload loses none); the whole list is stored again once scanning pauses.
 */
export const BULK_ADDED_KEY = 'bulk.state.added';
/** Rows added by scans: ids newest first (they go on top of the list), the ones selected, their data. */
export type Added = { ids: string[]; selected: string[]; devices: BulkDevice[] };
/** States made by withAddedRows: the state they were made from and what they add. */
const appended = new WeakMap<BulkState, { from: BulkState; added: Added }>();
/** The whole list is stored again this long after the last batch of scans (ms), or at once past ADDED_MAX_ROWS. */
export const BULK_STORE_PAUSE_MS = 1500;
const ADDED_MAX_ROWS = 1000;

type BulkStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
// Outside a browser (the shortcut-sheet generator, node tests) there is no localStorage.
const noStorage: BulkStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const local = (): BulkStorage => (typeof localStorage === 'undefined' ? noStorage : localStorage);

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The stored list: the whole list as last stored, with the rows scans added since on top (each id once). */
export function readStoredBulk(storage: Pick<Storage, 'getItem'>): BulkState {
  const base = parseJson(storage.getItem(BULK_KEY)) as BulkState | null;
  const s: BulkState = base && Array.isArray(base.list) && Array.isArray(base.selected) && base.devices ? base : EMPTY_BULK;
  const added = parseJson(storage.getItem(BULK_ADDED_KEY));
  if (!Array.isArray(added) || !added.length) return s;
  const devices = { ...s.devices };
  let list = s.list;
  let selected = s.selected;
  for (const a of added as Added[]) {
    // A row already on the list (the whole list stored again while another page read it) is not added twice.
    const fresh = (a.devices ?? []).filter((d) => d && !devices[d.id]);
    if (!fresh.length) continue;
    const ids = new Set(fresh.map((d) => d.id));
    for (const d of fresh) devices[d.id] = d;
    list = [...(a.ids ?? []).filter((id) => ids.has(id)), ...list];
    selected = [...(a.selected ?? []).filter((id) => ids.has(id)), ...selected];
  }
  return { list, selected, devices };
}

/** Rows waiting in BULK_ADDED_KEY (as stored), and the timer that stores the whole list. */
let pendingAdded: Added[] = [];
let pendingAddedRows = 0;
let storeTimer: ReturnType<typeof setTimeout> | null = null;
/** The state the whole list is stored from when the timer fires. */
let latest: BulkState | null = null;

function storeWhole(s: BulkState, storage = local()) {
  if (storeTimer) clearTimeout(storeTimer);
  storeTimer = null;
  latest = null;
  storage.setItem(BULK_KEY, JSON.stringify(s));
  if (pendingAdded.length) storage.removeItem(BULK_ADDED_KEY);
  pendingAdded = [];
  pendingAddedRows = 0;
}

/** Stores a change: only the added rows when `next` is `prev` plus rows scans added, else the whole list. */
function storeBulk(prev: BulkState, next: BulkState) {
  const link = appended.get(next);
  if (!link || link.from !== prev || pendingAddedRows + link.added.ids.length > ADDED_MAX_ROWS) {
    storeWhole(next);
    return;
  }
  pendingAdded.push(link.added);
  pendingAddedRows += link.added.ids.length;
  local().setItem(BULK_ADDED_KEY, JSON.stringify(pendingAdded));
  latest = next;
  if (storeTimer) clearTimeout(storeTimer);
  storeTimer = setTimeout(() => latest && storeWhole(latest), BULK_STORE_PAUSE_MS);
}

/** Stores the whole list now if scans added rows since (leaving the page: the next load reads one key). */
export function flushBulkStore() {
  if (latest) storeWhole(latest);
}

const storedBulkAtom = atom<BulkState>(readStoredBulk(local()));
storedBulkAtom.onMount = (set) => {
  if (typeof window === 'undefined') return;
  const readAgain = () => {
    const added = parseJson(local().getItem(BULK_ADDED_KEY));
    pendingAdded = Array.isArray(added) ? (added as Added[]) : [];
    pendingAddedRows = pendingAdded.reduce((n, a) => n + (a.ids?.length ?? 0), 0);
    latest = null;
    set(readStoredBulk(local()));
  };
  // What is stored now, as a page that uses the list appears (it may have changed since start-up).
  readAgain();
  // Another page of the workspace changed the list: read it again.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== null && e.key !== BULK_KEY && e.key !== BULK_ADDED_KEY) return;
    readAgain();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener('pagehide', flushBulkStore);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener('pagehide', flushBulkStore);
  };
};

/** The bulk list + selected list (+ row data), persisted in localStorage (BULK_KEY and BULK_ADDED_KEY). */
export const bulkAtom = atom(
  (get) => get(storedBulkAtom),
  (get, set, update: SetStateAction<BulkState>) => {
    const prev = get(storedBulkAtom);
    const next = typeof update === 'function' ? update(prev) : update;
    if (next === prev) return;
    set(storedBulkAtom, next);
    storeBulk(prev, next);
  },
);

/** The row added last (highlighted for 5 seconds), not persisted. */
export const lastAddedAtom = atom<string | null>(null);

/** Outcome sounds on/off (persisted). */
export const bulkSoundsAtom = atomWithStorage<boolean>('bulk.sounds', true, createJSONStorage<boolean>(local), { getOnInit: true });

/** Serials scanned outside the bulk page, waiting in the "add to bulk list" offer (persisted: a reload loses none). */
export const scanOfferAtom = atomWithStorage<string[]>('bulk.scanOffer', [], createJSONStorage<string[]>(local), { getOnInit: true });

/**
 * The offer's scans split by the serial format (src/shared/serials.ts): `serials` are offered,
 * `doubtful` ones (a burst the browser split, another barcode) are shown apart and never added.
 */
export function splitOffer(offer: readonly string[]): { serials: string[]; doubtful: string[] } {
  return { serials: offer.filter((s) => isSerialFormat(s)), doubtful: offer.filter((s) => !isSerialFormat(s)) };
}

/** The offer after one more scan: appended once (a repeat of a serial already offered adds nothing). */
export function withScan(offer: string[], serial: string): string[] {
  const s = serial.trim();
  if (!s || offer.some((o) => norm(o) === norm(s))) return offer;
  return [...offer, s];
}

export type BulkWarnings = { notFound: string[]; already: string[] };
/**
 * Serials behind the two warnings (the not-found one is sticky, the already-added one persistent):
 * kept in localStorage, so they survive a reload until the user dismisses them or clears the list.
 */
export const bulkWarningsAtom = atomWithStorage<BulkWarnings>('bulk.warnings', { notFound: [], already: [] }, createJSONStorage<BulkWarnings>(local), {
  getOnInit: true,
});

type Store = { set: (a: any, v: any) => void };
/** Clear empties everything: both lists, the rows, the warnings, the highlight. */
export function clearBulk(store: Store) {
  store.set(bulkAtom, EMPTY_BULK);
  store.set(bulkWarningsAtom, { notFound: [], already: [] });
  store.set(lastAddedAtom, null);
}
