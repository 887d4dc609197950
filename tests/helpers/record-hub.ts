// A stand-in for the live hub client's record following (liveHub.watchRecord of src/app/api/live.ts)
// in component tests. A test file mocks the module with it:
//   vi.mock('<path>/src/app/api/live', async () => (await import('<path>/tests/helpers/record-hub')).recordHubModule());
// and imports `recordHub` to see the watches and to send events to the ones still open. The state is
// the test file's own (each file has its own modules); clear it before each test with resetRecordHub().
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
