// Allocate devices (spec document 2 §5 "Allocation", §8): which rows may be allocated, which device
// types the allocation would take past their subscription (purchased minus allocated), and the
// confirmation text for a missing order number and/or exceeded quotas.
import { CUSTOMER_UI_TEXT } from './text';

export type AllocRow = {
  id: string;
  etag: string;
  serialNumber: string;
  typeValue: number;
  typeName: string;
  /** False for placeholders of unknown serials and for devices that may not be allocated. */
  eligible: boolean;
};

export type Quota = { typeValue: number; typeName: string; purchased: number; allocated: number };

/** The device types whose remaining quota (purchased - allocated) the selected rows exceed, by name. */
export function exceededTypes(selected: readonly AllocRow[], quotas: readonly Quota[]): string[] {
  const counts = new Map<number, { name: string; n: number }>();
  for (const r of selected) {
    const c = counts.get(r.typeValue) ?? { name: r.typeName, n: 0 };
    c.n++;
    counts.set(r.typeValue, c);
  }
  const out: string[] = [];
  for (const [type, { name, n }] of counts) {
    const q = quotas.find((x) => x.typeValue === type);
    const left = q ? q.purchased - q.allocated : 0;
    if (n > left) out.push(q?.typeName ?? name);
  }
  return out;
}

/** The confirmation to ask before allocating, or null when nothing needs confirming. */
export function allocationConfirmation(orderNumber: string, exceeded: readonly string[]): string | null {
  const missing = orderNumber.trim() === '';
  const types = exceeded.join(', ');
  if (missing && exceeded.length) return CUSTOMER_UI_TEXT.noOrderAndQuota(types);
  if (missing) return CUSTOMER_UI_TEXT.noOrderNumber;
  if (exceeded.length) return CUSTOMER_UI_TEXT.quotaExceeded(types);
  return null;
}

/** Serial entry (spec §5): '' when fine, else the message to show. */
export function serialEntryProblem(serial: string, rows: readonly Pick<AllocRow, 'serialNumber'>[], noSerial: string, already: string): string {
  const s = serial.trim();
  if (!s) return noSerial;
  const up = s.toUpperCase();
  return rows.some((r) => r.serialNumber.toUpperCase() === up) ? already : '';
}

/** What the serial field says: the entry error, and the repeated serials behind 'Device already added.'. */
export type EntryNotice = { error: string; repeats: string[] };

/**
 * The field's notice after one more entry. A repeat's 'Device already added.' stays, naming every
 * repeated serial, until dismissed: the next scan of a burst does not wipe it.
 */
export function nextEntryNotice(prev: EntryNotice, serial: string, problem: string, already: string): EntryNotice {
  if (problem === already) return { error: '', repeats: [...prev.repeats, serial.trim()] };
  return { error: problem, repeats: prev.repeats };
}
