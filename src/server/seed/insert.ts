// Batched multi-row inserts for the demo generator. Statements are built once per table and batch
// size and run as raw compiled queries (no per-row query building).
//
// SQLite: `insert … values (?, …), (?, …)` sized under its bound-parameter limit (32766).
// PostgreSQL: the batch as one JSON parameter, `insert … select … from json_populate_recordset(null::"table", $1)`:
// the statement text and its planning do not grow with the rows, so a batch holds thousands of
// rows in one round trip, and each value takes the column's own type. (Measured against multi-row
// VALUES and one array parameter per column: as fast as VALUES for the wide rows with JSON text —
// persons, alarm reports — and faster for the narrow ones; arrays of JSON text are several times
// slower to escape and parse.)
import { CompiledQuery, type Insertable } from 'kysely';
import type { DB } from '../db/index.js';
import { isPostgres } from '../db/index.js';
import type { Database } from '../db/schema.js';

type Row<K extends keyof Database> = Insertable<Database[K]>;

const MAX_ROWS = 500;
/** PostgreSQL: rows per batch (a batch of alarm reports with their profile snapshots is a few MB). */
const PG_MAX_ROWS = 2_000;

/**
 * The inserters writing through each connection or transaction, and the first of their batches to
 * fail: on PostgreSQL every statement after a failed one fails too ("current transaction is
 * aborted"), so the first failure is the cause, whichever table is flushed next.
 */
const writers = new WeakMap<DB, { all: Set<BatchInserter<any>>; first?: { error: unknown } }>();

/**
 * Waits until no batch of any inserter on `db` is on its way, whatever its outcome. On PostgreSQL a
 * batch is sent without being awaited, and Kysely's rollback does not wait for the statements
 * queued on the transaction's connection: one still queued would run after the rollback, outside
 * the transaction, and its rows would stay. A load that fails calls this before its transaction ends.
 */
export async function settleInserters(db: DB): Promise<void> {
  for (const w of writers.get(db)?.all ?? []) await w.quiet();
}

export class BatchInserter<K extends keyof Database> {
  readonly table: K;
  private readonly columns: string[];
  private readonly pg: boolean;
  private readonly rowsPerBatch: number;
  private values: unknown[] = [];
  /** PostgreSQL: the batch's rows, each as JSON (taken when it is added). */
  private pgRows: string[] = [];
  private rows = 0;
  private fullSql: string | null = null;
  private pgSql: string | null = null;
  private checked = false;
  private inFlight: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;
  private readonly shared: { first?: { error: unknown } };
  total = 0;
  /** time spent in the database for this table, ms */
  ms = 0;

  /** parents: inserters whose rows this table references; they are flushed first (foreign keys are checked at once). */
  constructor(
    private readonly db: DB,
    table: K,
    columns: readonly (keyof Row<K> & string)[],
    private readonly parents: readonly BatchInserter<any>[] = [],
  ) {
    this.table = table;
    this.columns = [...columns];
    this.pg = isPostgres(db);
    this.rowsPerBatch = this.pg ? PG_MAX_ROWS : Math.max(1, Math.min(MAX_ROWS, Math.floor(32_766 / this.columns.length)));
    let mine = writers.get(db);
    if (!mine) writers.set(db, (mine = { all: new Set() }));
    mine.all.add(this);
    this.shared = mine;
  }

  /** Waits for the batch on its way, if any; its failure stays for the next send or flush to throw. */
  async quiet(): Promise<void> {
    if (this.inFlight) await this.inFlight;
  }

  private sqlFor(rows: number) {
    const cols = this.columns.map((c) => `"${c}"`).join(', ');
    const n = this.columns.length;
    const tuples: string[] = new Array(rows);
    for (let r = 0; r < rows; r++) tuples[r] = `(${new Array(n).fill('?').join(', ')})`;
    return `insert into "${this.table}" (${cols}) values ${tuples.join(', ')}`;
  }

  /** PostgreSQL: a key the row lacks (a value left undefined) reads as null, as in the SQLite batch. */
  private recordsetSql() {
    const cols = this.columns.map((c) => `"${c}"`).join(', ');
    return `insert into "${this.table}" (${cols}) select ${cols} from json_populate_recordset(null::"${this.table}", $1::json)`;
  }

  /** Queues a row; sends the batch when it is full. Await it. */
  add(row: Row<K>): Promise<void> | void {
    const r = row as Record<string, unknown>;
    if (!this.checked) {
      this.checked = true;
      const extra = Object.keys(r).filter((k) => !this.columns.includes(k));
      if (extra.length) throw new Error(`seed: ${this.table} row has columns not in the insert list: ${extra.join(', ')}`);
    }
    if (this.pg) this.pgRows.push(JSON.stringify(r));
    else
      for (const c of this.columns) {
        const v = r[c];
        this.values.push(v === undefined ? null : v);
      }
    this.rows++;
    if (this.rows >= this.rowsPerBatch) return this.send();
  }

  /** Sends the queued rows (parents' first) and waits until every row of this table is stored. */
  async flush(): Promise<void> {
    await this.send();
    await this.settle();
  }

  /**
   * PostgreSQL: a batch is sent without waiting for it to be stored, so the next batch is generated
   * while the database inserts this one (the transaction's one connection runs the statements in
   * the order they were sent). One batch per table is in flight at a time; a failure is thrown by
   * the next send or flush of the table. SQLite runs each batch at once.
   */
  private async send(): Promise<void> {
    for (const p of this.parents) await p.send();
    if (this.rows === 0) return;
    await this.settle();
    let text: string;
    let params: unknown[];
    if (this.pg) {
      text = this.pgSql ??= this.recordsetSql();
      params = [`[${this.pgRows.join(',')}]`];
      this.pgRows = [];
    } else {
      text = this.rows === this.rowsPerBatch ? (this.fullSql ??= this.sqlFor(this.rows)) : this.sqlFor(this.rows);
      params = this.values;
      this.values = [];
    }
    const n = this.rows;
    this.rows = 0;
    const t = performance.now();
    const done = this.db.executeQuery(CompiledQuery.raw(text, params)).then(() => {
      this.ms += performance.now() - t;
      this.total += n;
    });
    if (!this.pg) return done;
    // handled here, thrown by settle(): a failed batch never becomes an unhandled rejection
    this.inFlight = done.catch((error: unknown) => {
      this.failure ??= { error };
      this.shared.first ??= this.failure;
    });
  }

  /** Waits for the batch in flight; throws the first failure of this table. */
  private async settle(): Promise<void> {
    if (this.inFlight) await this.inFlight;
    this.inFlight = null;
    if (this.failure) throw (this.shared.first ?? this.failure).error;
  }
}
