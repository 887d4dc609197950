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

  /** Queues a row; flushes when the batch is full. Await it. */
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
    if (this.rows >= this.rowsPerBatch) return this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    for (const p of this.parents) await p.flush();
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
    await this.db.executeQuery(CompiledQuery.raw(text, params));
    this.ms += performance.now() - t;
    this.total += n;
  }
}
