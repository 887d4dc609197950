// Scans at scanner speed: every serial goes into a queue that is written to localStorage before
// anything else happens, so neither a reload nor a network drop loses it. One request at a time
// resolves everything waiting (hundreds of scans become one batched request); results are applied
// strictly in scan order. A failed request keeps the scans and tries again (backoff, and at once
// when the browser says it is online again); so does a request that has not answered within
// `timeoutMs` (it is aborted: a connection that never answers does not hold the queue).
/** `many`: part of a list added at once (CSV): merged and everything selected. */
export type PendingScan = { serial: string; at: number; many?: boolean };

export type QueueStatus = { pending: number; busy: boolean; failing: boolean };

export type ScanQueueOptions<R> = {
  /** Where pending scans are kept (localStorage in the app). */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  key?: string;
  /**
   * Resolves a batch of serials (in order); one result per serial. Throws when the server cannot
   * answer. `signal` aborts when the queue gives the lookup up (`timeoutMs`).
   */
  resolve: (serials: string[], signal: AbortSignal) => Promise<R[]>;
  /** Applies one batch's results, in scan order. Called synchronously before the batch leaves the queue. */
  apply: (scans: PendingScan[], results: R[]) => void;
  /** After every change: the status, and the scans still waiting (oldest first). */
  onStatus?: (s: QueueStatus, pending: PendingScan[]) => void;
  onError?: (err: unknown) => void;
  /** Waits between retries (ms); the last one repeats. */
  retryMs?: number[];
  maxBatch?: number;
  /**
   * Least time between the starts of two lookups (ms; default 0). A lookup after a pause leaves at
   * once; during a burst the scans that arrive meanwhile wait for the next one, so a scanner's
   * burst is a few batches (each applied, stored and drawn once), not one per scan.
   */
  minIntervalMs?: number;
  /**
   * Longest wait for one lookup (ms; default LOOKUP_TIMEOUT_MS). Past it the lookup is aborted and
   * counts as a failure: the scans stay, in order, and are tried again after the retry wait.
   */
  timeoutMs?: number;
  now?: () => number;
};

export const LOOKUP_TIMEOUT_MS = 20_000;

/** A lookup given up after `timeoutMs`. */
export class LookupTimeoutError extends Error {
  constructor(ms: number) {
    super(`bulk lookup: no answer within ${ms} ms`);
    this.name = 'LookupTimeoutError';
  }
}

export const PENDING_KEY = 'bulk.pendingScans';

export class ScanQueue<R> {
  private busy = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The next lookup waits for `minIntervalMs` after the last one started. */
  private spacing: ReturnType<typeof setTimeout> | null = null;
  private lastStart = -Infinity;
  private readonly key: string;

  constructor(private readonly o: ScanQueueOptions<R>) {
    this.key = o.key ?? PENDING_KEY;
  }

  /** The stored text last read or written, and its list: unchanged text is not parsed again. */
  private cache: { text: string | null; list: PendingScan[] } | null = null;

  /**
   * Scans not resolved yet, oldest first. Always what storage holds (another page may have changed
   * it); the list is parsed again only when the stored text differs from the last one seen.
   */
  pending(): PendingScan[] {
    const text = this.o.storage.getItem(this.key);
    if (this.cache && this.cache.text === text) return this.cache.list;
    let list: PendingScan[] = [];
    try {
      const v = JSON.parse(text ?? '[]') as unknown;
      if (Array.isArray(v)) list = v.filter((x): x is PendingScan => !!x && typeof (x as PendingScan).serial === 'string');
    } catch {
      list = [];
    }
    this.cache = { text, list };
    return list;
  }

  private write(list: PendingScan[]) {
    const text = JSON.stringify(list);
    this.o.storage.setItem(this.key, text);
    this.cache = { text, list };
  }

  status(): QueueStatus {
    return { pending: this.pending().length, busy: this.busy, failing: this.failures > 0 };
  }

  private report() {
    if (!this.o.onStatus) return;
    const pending = this.pending();
    this.o.onStatus({ pending: pending.length, busy: this.busy, failing: this.failures > 0 }, pending);
  }

  /** Stores the scan (synchronously) and starts resolving. */
  enqueue(serial: string) {
    this.enqueueMany([serial]);
  }

  enqueueMany(serials: readonly string[], many = false) {
    const at = (this.o.now ?? Date.now)();
    const add = serials.map((s) => s.trim()).filter(Boolean);
    if (!add.length) return;
    this.write([...this.pending(), ...add.map((serial) => (many ? { serial, at, many } : { serial, at }))]);
    this.report();
    void this.run();
  }

  /** Retry now (online again, or the page came back). */
  kick() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.run();
  }

  dispose() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.spacing) clearTimeout(this.spacing);
    this.spacing = null;
  }

  private async run(): Promise<void> {
    if (this.busy || this.timer || this.spacing) return;
    const batch = this.pending().slice(0, this.o.maxBatch ?? 10_000);
    if (!batch.length) return;
    const now = (this.o.now ?? Date.now)();
    const wait = this.lastStart + (this.o.minIntervalMs ?? 0) - now;
    if (wait > 0) {
      this.spacing = setTimeout(() => {
        this.spacing = null;
        void this.run();
      }, wait);
      return;
    }
    this.lastStart = now;
    this.busy = true;
    this.report();
    const ms = this.o.timeoutMs ?? LOOKUP_TIMEOUT_MS;
    const abort = new AbortController();
    let deadline: ReturnType<typeof setTimeout> | null = null;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => {
          const err = new LookupTimeoutError(ms);
          abort.abort(err);
          reject(err);
        }, ms);
      });
      const results = await Promise.race([
        this.o.resolve(
          batch.map((s) => s.serial),
          abort.signal,
        ),
        timedOut,
      ]);
      if (results.length !== batch.length) throw new Error('bulk lookup: result count differs from the serials sent');
      // Apply, then drop exactly this batch (scans added meanwhile stay, after it).
      this.o.apply(batch, results);
      this.write(this.pending().slice(batch.length));
    } catch (err) {
      this.retryLater(err);
      return;
    } finally {
      if (deadline) clearTimeout(deadline);
    }
    this.busy = false;
    this.failures = 0;
    this.report();
    return this.run();
  }

  /** The batch stays where it is; the queue is free again and tries after the next retry wait. */
  private retryLater(err: unknown) {
    this.busy = false;
    this.failures++;
    this.o.onError?.(err);
    const waits = this.o.retryMs ?? [500, 1000, 2000, 5000, 10000];
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.run();
      },
      waits[Math.min(this.failures - 1, waits.length - 1)],
    );
    this.report();
  }
}
