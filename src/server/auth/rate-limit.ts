// In-memory sliding-window limiter (a log of attempt times per key). One process only: with
// several server nodes each node limits on its own, which still bounds guessing per node.
// Time comes from the injected clock so tests can move it forward.

export type Limiter = {
  /**
   * Records an attempt for the key unless it is over its limit. Returns a ticket to hand back
   * to `refund` (attempts that turn out fine need not count), or the seconds to wait.
   */
  take(key: string): { ok: true; ticket: Ticket } | { ok: false; retryAfterSeconds: number };
  refund(ticket: Ticket): void;
};
export type Ticket = { key: string; at: number };

export function createLimiter(opts: { limit: number; windowMs: number; now: () => Date; maxKeys?: number }): Limiter {
  const log = new Map<string, number[]>();
  const maxKeys = opts.maxKeys ?? 50_000;

  const live = (key: string, now: number) => {
    const times = log.get(key);
    if (!times) return [];
    const from = now - opts.windowMs;
    let drop = 0;
    while (drop < times.length && times[drop] <= from) drop++;
    if (drop) times.splice(0, drop);
    if (!times.length) log.delete(key);
    return times;
  };

  const sweep = (now: number) => {
    for (const key of [...log.keys()]) live(key, now);
    // Still too many distinct keys (a spray of addresses): forget the oldest entries.
    if (log.size >= maxKeys) for (const key of [...log.keys()].slice(0, log.size - maxKeys + 1)) log.delete(key);
  };

  return {
    take(key) {
      const now = opts.now().getTime();
      const times = live(key, now);
      if (times.length >= opts.limit) {
        const wait = times[times.length - opts.limit] + opts.windowMs - now;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }
      if (!log.has(key) && log.size >= maxKeys) sweep(now);
      if (times.length) times.push(now);
      else log.set(key, [now]);
      return { ok: true, ticket: { key, at: now } };
    },
    refund({ key, at }) {
      const times = log.get(key);
      const i = times ? times.lastIndexOf(at) : -1;
      if (times && i >= 0) {
        times.splice(i, 1);
        if (!times.length) log.delete(key);
      }
    },
  };
}

/** Several limiters (e.g. per e-mail and per address) taken together: all or nothing. */
export function takeAll(pairs: [Limiter, string][]): { ok: true; refund: () => void } | { ok: false; retryAfterSeconds: number } {
  const taken: [Limiter, Ticket][] = [];
  for (const [limiter, key] of pairs) {
    const r = limiter.take(key);
    if (!r.ok) {
      for (const [l, t] of taken) l.refund(t);
      return r;
    }
    taken.push([limiter, r.ticket]);
  }
  return { ok: true, refund: () => { for (const [l, t] of taken) l.refund(t); } };
}
