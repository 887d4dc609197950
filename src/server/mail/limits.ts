// The outbox's retry limit, shared by the relay (outbox.ts) and the backlog gauge (metrics.ts).

/** Sends one message at most this many times. */
export const OUTBOX_MAX_ATTEMPTS = 5;
