// The message stream's data rules (spec document 2 §2 "Message Stream", §3 "Device message",
// "Detailed message", §9 'Load more'), free of React (tests/unit/live/stream-model.test.ts):
//   - live messages go on top of the loaded pages, each message once (by MessageId), newest first;
//   - 'Load more' shows when 10 or more messages are loaded and a continuation token exists;
//   - the detailed message's MessageProperties is a JSON string (the answer is parsed, then this
//     string, "parsed twice"); only scalar values are shown, empty values as a dash.
import { LOAD_MORE_MIN, type DeviceMessageDto } from '../../../shared/schemas/live';

export const DASH = '-';

/** Live messages (newest first) over the fetched pages: one row per MessageId, newest first. */
export function mergeStream(live: readonly DeviceMessageDto[], pages: readonly (readonly DeviceMessageDto[])[]): DeviceMessageDto[] {
  const seen = new Set<string>();
  const out: DeviceMessageDto[] = [];
  for (const m of [...live, ...pages.flat()]) {
    if (seen.has(m.MessageId)) continue;
    seen.add(m.MessageId);
    out.push(m);
  }
  // Stable: equal dates keep arrival order. ISO strings of one format compare as dates.
  return out
    .map((m, i) => ({ m, i, t: Date.parse(m.Date) }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map((x) => x.m);
}

/** Spec §9: 'Load more' at 10 or more loaded messages with a continuation token. */
export const showLoadMore = (loaded: number, continuationToken: string | null | undefined) => loaded >= LOAD_MORE_MIN && !!continuationToken;

const isScalar = (v: unknown) => v === null || v === undefined || ['string', 'number', 'boolean'].includes(typeof v);
const show = (v: unknown): string => {
  if (v === null || v === undefined) return DASH;
  if (typeof v === 'string') return v.trim() ? v : DASH;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
};

/** The scalar properties of a detailed message, as [name, text] in the order given; objects and arrays are left out. */
export function scalarProperties(messageProperties: unknown): [string, string][] {
  let value: unknown = messageProperties;
  // The string may itself hold a JSON string (double-encoded): parse until it is not a string.
  for (let i = 0; i < 2 && typeof value === 'string'; i++) {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => isScalar(v))
    .map(([k, v]) => [k, show(v)]);
}

/** Battery as 'N%', signal as a number; unknown as a dash. */
export const batteryText = (b: number | null | undefined) => (b === null || b === undefined ? DASH : `${b}%`);
export const signalText = (s: number | null | undefined) => (s === null || s === undefined ? DASH : String(s));
