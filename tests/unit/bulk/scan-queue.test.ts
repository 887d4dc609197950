import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScanQueue, type PendingScan } from '../../../src/app/features/bulk-update/scan-queue';

class MemStorage {
  data = new Map<string, string>();
  getItem = (k: string) => this.data.get(k) ?? null;
  setItem = (k: string, v: string) => void this.data.set(k, v);
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('scan queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves scans in order even when the server is slow, batching what arrives meanwhile', async () => {
    const storage = new MemStorage();
    const applied: string[] = [];
    const calls: string[][] = [];
    const q = new ScanQueue<string>({
      storage,
      resolve: (serials) => {
        calls.push(serials);
        return new Promise((r) => setTimeout(() => r(serials.map((s) => s.toLowerCase())), 1000));
      },
      apply: (scans, results) => scans.forEach((s, i) => applied.push(`${s.serial}:${results[i]}`)),
    });
    q.enqueue('A1');
    q.enqueue('B2');
    q.enqueue('C3');
    expect(q.pending().map((p) => p.serial)).toEqual(['A1', 'B2', 'C3'].slice(0, 3));
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(calls).toEqual([['A1'], ['B2', 'C3']]);
    expect(applied).toEqual(['A1:a1', 'B2:b2', 'C3:c3']);
    expect(q.pending()).toEqual([]);
  });

  it('keeps scans while the server is unreachable and resolves them when it is back; a reload (new queue on the same storage) keeps them', async () => {
    const storage = new MemStorage();
    let online = false;
    const applied: string[] = [];
    const make = () =>
      new ScanQueue<string>({
        storage,
        retryMs: [100, 200],
        resolve: async (serials) => {
          if (!online) throw new TypeError('Failed to fetch');
          return serials;
        },
        apply: (scans: PendingScan[]) => scans.forEach((s) => applied.push(s.serial)),
      });
    const q1 = make();
    q1.enqueue('S1');
    q1.enqueue('S2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(applied).toEqual([]);
    expect(q1.status().failing).toBe(true);
    q1.dispose();
    // reload: a fresh queue sees the pending scans in storage
    const q2 = make();
    expect(q2.pending().map((p) => p.serial)).toEqual(['S1', 'S2']);
    q2.enqueue('S3');
    await vi.advanceTimersByTimeAsync(500);
    expect(applied).toEqual([]);
    online = true;
    await vi.advanceTimersByTimeAsync(300);
    await flush();
    expect(applied).toEqual(['S1', 'S2', 'S3']);
    expect(q2.pending()).toEqual([]);
    expect(q2.status().failing).toBe(false);
  });

  it('gives up a lookup that never answers after timeoutMs (aborting it) and tries again: the scans are kept and applied once, in order', async () => {
    const storage = new MemStorage();
    const applied: string[] = [];
    const calls: string[][] = [];
    const signals: AbortSignal[] = [];
    let hang = true;
    const q = new ScanQueue<string>({
      storage,
      timeoutMs: 5000,
      retryMs: [100],
      resolve: (serials, signal) => {
        calls.push(serials);
        signals.push(signal);
        // the first request's connection never answers (no error, no response)
        if (hang) return new Promise<string[]>(() => {});
        return Promise.resolve(serials.map((s) => s.toLowerCase()));
      },
      apply: (scans, results) => scans.forEach((s, i) => applied.push(`${s.serial}:${results[i]}`)),
    });
    q.enqueue('A1');
    q.enqueue('B2');
    await vi.advanceTimersByTimeAsync(4000);
    expect(q.status()).toEqual({ pending: 2, busy: true, failing: false });
    q.enqueue('C3');
    await vi.advanceTimersByTimeAsync(1000);
    // abandoned: the request is aborted, the queue is free and failing, nothing is lost
    expect(signals[0]?.aborted).toBe(true);
    expect(q.status()).toEqual({ pending: 3, busy: false, failing: true });
    hang = false;
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(calls).toEqual([['A1'], ['A1', 'B2', 'C3']]);
    expect(applied).toEqual(['A1:a1', 'B2:b2', 'C3:c3']);
    expect(q.pending()).toEqual([]);
    expect(q.status()).toEqual({ pending: 0, busy: false, failing: false });
  });

  it('a batch whose results cannot be applied stays queued and the queue is not left busy', async () => {
    const storage = new MemStorage();
    const applied: string[] = [];
    let broken = true;
    const q = new ScanQueue<string>({
      storage,
      retryMs: [100],
      resolve: async (serials) => serials,
      apply: (scans) => {
        if (broken) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        scans.forEach((s) => applied.push(s.serial));
      },
    });
    q.enqueue('A1');
    await flush();
    expect(q.status()).toEqual({ pending: 1, busy: false, failing: true });
    broken = false;
    q.enqueue('B2');
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(applied).toEqual(['A1', 'B2']);
    expect(q.pending()).toEqual([]);
  });

  it('reads what storage holds: a scan written by another page is seen, a list unchanged is parsed once', async () => {
    const storage = new MemStorage();
    let reads = 0;
    const parse = JSON.parse;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      reads++;
      return parse(text, reviver);
    });
    try {
      let release: () => void = () => {};
      const q = new ScanQueue<string>({
        storage,
        resolve: (serials) => new Promise((r) => (release = () => r(serials))),
        apply: () => {},
      });
      q.enqueue('A1');
      q.enqueue('B2');
      const before = reads;
      for (let i = 0; i < 5; i++) expect(q.pending().map((p) => p.serial)).toEqual(['A1', 'B2']);
      expect(reads).toBe(before);
      // another page of the app appends a scan to the same key
      storage.setItem('bulk.pendingScans', JSON.stringify([...q.pending(), { serial: 'C3', at: 1 }]));
      expect(q.pending().map((p) => p.serial)).toEqual(['A1', 'B2', 'C3']);
      q.enqueue('D4');
      expect(parse(storage.getItem('bulk.pendingScans')!).map((p: PendingScan) => p.serial)).toEqual(['A1', 'B2', 'C3', 'D4']);
      release();
      await flush();
      release();
      await flush();
      expect(q.pending()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('spaces lookups by minIntervalMs: a scan after a pause goes at once, a burst comes back in a few batches, in order', async () => {
    const storage = new MemStorage();
    const calls: string[][] = [];
    const applied: string[] = [];
    const q = new ScanQueue<string>({
      storage,
      minIntervalMs: 150,
      resolve: (serials) => {
        calls.push(serials);
        return new Promise((r) => setTimeout(() => r(serials), 10));
      },
      apply: (scans) => scans.forEach((s) => applied.push(s.serial)),
    });
    // a scanner: a scan every 60 ms
    for (const s of ['S1', 'S2', 'S3', 'S4', 'S5']) {
      q.enqueue(s);
      await vi.advanceTimersByTimeAsync(60);
    }
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(calls).toEqual([['S1'], ['S2', 'S3'], ['S4', 'S5']]);
    expect(applied).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    expect(q.pending()).toEqual([]);
    // after a pause: at once
    q.enqueue('S6');
    await vi.advanceTimersByTimeAsync(10);
    await flush();
    expect(calls.at(-1)).toEqual(['S6']);
    expect(applied.at(-1)).toBe('S6');
  });
});
