// The link between the alarm report commands (commands/alarm-*.ts) and the alarm report tabs: a
// mounted list registers its export, a mounted detail tab its print, add-note and escalation
// actions. A command runs the focused tab's action, or (export) opens the list and asks it to run
// once it is there. No DOM or React here, so command modules and the doc generator can load it.
export type AlarmAction = 'export' | 'print' | 'addNote' | 'toggleEscalation' | 'next' | 'prev' | 'schedule';

const handlers = new Map<string, () => unknown>();
const key = (tabId: string, action: AlarmAction) => `${tabId}::${action}`;
let pendingExport = false;

export function registerAlarmAction(tabId: string, action: AlarmAction, run: () => unknown): () => void {
  const k = key(tabId, action);
  handlers.set(k, run);
  if (action === 'export' && pendingExport) {
    pendingExport = false;
    setTimeout(() => void run(), 0);
  }
  return () => {
    if (handlers.get(k) === run) handlers.delete(k);
  };
}

/** Runs the action of the tab `tabId`; false when that tab has not registered it. */
export function runAlarmAction(tabId: string | undefined, action: AlarmAction): boolean {
  const run = tabId ? handlers.get(key(tabId, action)) : undefined;
  if (!run) return false;
  void run();
  return true;
}

export function hasAlarmAction(tabId: string | undefined, action: AlarmAction): boolean {
  return !!tabId && handlers.has(key(tabId, action));
}

/** The next alarm report list that mounts starts its export (the command opened it for that). */
export function requestAlarmExportOnOpen() {
  pendingExport = true;
}

// The rows (alarm ids, in order) of the alarm report list last shown: next / previous report walk them,
// and past either end of that page into the list's next or previous page (the whole filtered list).
let listOrder: readonly string[] = [];
/** Where the shown page sits in the filtered list, and how to read another page (alarm ids in order). */
export type AlarmListPaging = { page: number; pageCount: number; fetchPage: (page: number) => Promise<readonly string[]> };
let paging: AlarmListPaging | null = null;
export function setAlarmListOrder(alarmIds: readonly string[], listPaging: AlarmListPaging | null = null) {
  listOrder = alarmIds;
  paging = listPaging;
}

/** Like neighbourAlarm, but across pages: at a page's edge it reads the next / previous page of the list. */
export async function stepAlarm(alarmId: string, delta: 1 | -1): Promise<string | null> {
  const near = neighbourAlarm(alarmId, delta);
  if (near) return near;
  const i = listOrder.indexOf(alarmId);
  const atEdge = i >= 0 && (delta > 0 ? i === listOrder.length - 1 : i === 0);
  if (!atEdge || !paging) return null;
  const page = paging.page + delta;
  if (page < 1 || page > paging.pageCount) return null;
  const ids = await paging.fetchPage(page);
  if (!ids.length) return null;
  setAlarmListOrder(ids, { ...paging, page });
  return (delta > 0 ? ids[0] : ids[ids.length - 1]) ?? null;
}
/** The alarm id `delta` rows from `alarmId` in the last list, or null at either end or when it is not there. */
export function neighbourAlarm(alarmId: string, delta: number): string | null {
  const i = listOrder.indexOf(alarmId);
  if (i < 0) return null;
  return listOrder[i + delta] ?? null;
}
