// Stand-ins for the live hub client (src/app/api/live.ts) in component tests; the test plays the
// server. A test file mocks the module with one of them and imports its state to look at what the
// page subscribed and to send it events:
// - following a record (liveHub.watchRecord):
//     vi.mock('<path>/src/app/api/live', async () => (await import('<path>/tests/helpers/live-hub')).recordHubModule());
//   then `recordHub` (clear it before each test with resetRecordHub());
// - a page's devices (useDeviceLive), the rest of the module real:
//     vi.mock('<path>/src/app/api/live', async (importOriginal) => (await import('<path>/tests/helpers/live-hub')).deviceHubModule(importOriginal));
//   then `deviceHub` (clear it with resetDeviceHub()).
// The state is the test file's own (each file has its own modules).
import type { RecordHandlers } from '../../src/app/api/live';

export type RecordWatch = { kind: string; id: string; handlers: RecordHandlers; stopped: boolean };

export const recordHub = {
  /** Every watch started, in order; a stopped one stays, marked stopped. */
  watchers: [] as RecordWatch[],
  /** The watches not stopped yet. */
  open(): RecordWatch[] {
    return this.watchers.filter((w) => !w.stopped);
  },
};

export function resetRecordHub() {
  recordHub.watchers.length = 0;
}

/** The mocked module: its liveHub.watchRecord records the watch and returns the stop. */
export function recordHubModule() {
  return {
    liveHub: {
      watchRecord(kind: string, id: string, handlers: RecordHandlers) {
        const w: RecordWatch = { kind, id, handlers, stopped: false };
        recordHub.watchers.push(w);
        return () => void (w.stopped = true);
      },
    },
  };
}

type DeviceHandlers = Record<string, ((payload: unknown) => void) | undefined>;

export const deviceHub = {
  /** The identities the page last subscribed. */
  identities: [] as readonly string[],
  /** The page's handlers by event name (DeviceConnected, MessageStream, ...). */
  handlers: {} as DeviceHandlers,
  /** What useDeviceLive answers: the connection's state. */
  status: 'connected' as string,
};

export function resetDeviceHub() {
  Object.assign(deviceHub, { identities: [], handlers: {}, status: 'connected' });
}

/** The mocked module: the real one, but useDeviceLive keeps the page's identities and handlers and answers deviceHub.status. */
export async function deviceHubModule(importOriginal: <T>() => Promise<T>) {
  const real = await importOriginal<typeof import('../../src/app/api/live')>();
  return {
    ...real,
    useDeviceLive: (identities: readonly string[], handlers: DeviceHandlers) => {
      deviceHub.identities = identities;
      deviceHub.handlers = handlers;
      return deviceHub.status;
    },
  };
}
