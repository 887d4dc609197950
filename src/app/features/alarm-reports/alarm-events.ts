// The link between the alarm report commands (commands/alarm-*.ts) and the alarm report tabs: a
// mounted list registers its export, a mounted detail tab its print, add-note and escalation
// actions. A command runs the focused tab's action, or (export) opens the list and asks it to run
// once it is there. No DOM or React here, so command modules and the doc generator can load it.
export type AlarmAction = 'export' | 'print' | 'addNote' | 'toggleEscalation' | 'next' | 'prev';

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

// The rows (alarm ids, in order) of the alarm report list last shown: next / previous report walk them.
let listOrder: readonly string[] = [];
export function setAlarmListOrder(alarmIds: readonly string[]) {
  listOrder = alarmIds;
}
/** The alarm id `delta` rows from `alarmId` in the last list, or null at either end or when it is not there. */
export function neighbourAlarm(alarmId: string, delta: number): string | null {
  const i = listOrder.indexOf(alarmId);
  if (i < 0) return null;
  return listOrder[i + delta] ?? null;
}
