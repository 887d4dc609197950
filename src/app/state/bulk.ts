// The bulk update state (spec §3 "Bulk update state", §4 "Bulk selection"): two lists of device
// ids, the bulk list and the selected list, persisted locally so a reload keeps them. The rows'
// display data is kept beside them (same storage) so the list shows at once after a reload, also
// while the server is unreachable. Unknown serials become placeholder rows (status and type
// Unknown, etag 'not-found') whose id is `not-found:<serial>`; they cannot be selected.
// The rules are plain functions (tests/unit/bulk/rules.test.ts); the atoms apply them.
import { atom } from 'jotai';
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
export function pendingRows(s: BulkState, pending: readonly { serial: string; many?: boolean }[]): BulkDevice[] {
  const seen = new Set(s.list.map((id) => norm(s.devices[id]?.serialNumber ?? '')));
  let rows: BulkDevice[] = [];
  let block: BulkDevice[] = [];
  const flush = () => {
    if (block.length) rows = [...block, ...rows];
    block = [];
  };
  for (const p of pending) {
    const key = norm(p.serial);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    if (p.many) block.push(lookingUpRow(p.serial));
    else {
      flush();
      rows = [lookingUpRow(p.serial), ...rows];
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
  const want = norm(serial);
  for (const id of s.list) if (norm(s.devices[id]?.serialNumber ?? '') === want) return id;
  return null;
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
// Outside a browser (the shortcut-sheet generator, node tests) there is no localStorage.
const noStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
const local = () => (typeof localStorage === 'undefined' ? noStorage : localStorage);
const storage = createJSONStorage<BulkState>(local);

/** The bulk list + selected list (+ row data), persisted in localStorage. */
export const bulkAtom = atomWithStorage<BulkState>(BULK_KEY, EMPTY_BULK, storage, { getOnInit: true });

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
