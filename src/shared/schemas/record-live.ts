// Records open in several tabs at once (alarm reports, customers, persons, devices): THE CONTRACT
// between the hub (src/server/realtime/hub.ts) and the record tabs (src/app/api/record-live.ts).
//
// A tab that shows a record opens interest in it over the tab's hub connection (hub method
// `openRecord(kind, id)`, answered `{ Open, Present, At }`) and closes it when the tab closes
// (`closeRecord(kind, id)`). The hub refuses a record the user may not read by the REST read's rules
// (its permission, the tenant scope, who may see whom): `Open: false`. While open, the connection
// receives:
// - RecordChanged: someone changed the record or added a note to it (committed before it is sent).
//   A note carries the note itself; a change carries only who and when: the tab refetches on the
//   user's word (the "Changed by NAME — reload" bar), never over what the user is typing.
// - RecordPresence: who else has the record open (display names, the receiver's own user left out).
// Interest ends with the tab, the connection or the session. A tab whose connection was down opens
// the record again with the last `At` it was given (the answer's, or its newest RecordChanged's):
// `openRecord(kind, id, since)` also answers `Changed`, the newest change by someone else committed
// after it, which the tab shows as it would have shown that change's RecordChanged.
import * as v from 'valibot';
import { alarmNoteSchema } from './alarm-reports.js';

export const RECORD_KINDS = ['alarm-report', 'customer', 'person', 'device'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const RECORD_CHANGED_EVENT = 'RecordChanged';
export const RECORD_PRESENCE_EVENT = 'RecordPresence';
/** Client → server: openRecord(kind, id, since?) → OpenRecordResult; closeRecord(kind, id) → null. */
export const RECORD_METHODS = { open: 'openRecord', close: 'closeRecord' } as const;
/** Most records one connection has open at once (the workspace keeps a few tabs; a further open is refused). */
export const MAX_OPEN_RECORDS = 50;

export const RECORD_CHANGES = ['note', 'change'] as const;
export type RecordChange = (typeof RECORD_CHANGES)[number];

export const recordChangedEventSchema = v.strictObject({
  Kind: v.picklist(RECORD_KINDS),
  /** the record's id (an alarm report's report id, not its alarm id) */
  Id: v.string(),
  What: v.picklist(RECORD_CHANGES),
  /** the display name of the person who changed it */
  By: v.string(),
  ByUserId: v.string(),
  At: v.string(),
  /** the note added (What 'note'), else null */
  Note: v.nullable(alarmNoteSchema),
});
export type RecordChangedEvent = v.InferOutput<typeof recordChangedEventSchema>;

export const recordPresenceEventSchema = v.strictObject({
  Kind: v.picklist(RECORD_KINDS),
  Id: v.string(),
  /** display names of the others who have it open, each once, sorted */
  Present: v.array(v.string()),
});
export type RecordPresenceEvent = v.InferOutput<typeof recordPresenceEventSchema>;

/** A change a tab missed while its connection was down: who and when. */
export type MissedChange = { By: string; ByUserId: string; At: string };

/**
 * The answer of openRecord: Open false when refused (no read permission, another tenant's, unknown,
 * too many open). At: the server's time of the answer (the tab's `since` for a later open). Changed:
 * with `since`, the newest change by someone else after it, else null.
 */
export type OpenRecordResult = { Open: boolean; Present: string[]; At?: string; Changed?: MissedChange | null };
