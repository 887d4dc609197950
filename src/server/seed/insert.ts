// Batched multi-row inserts for the demo generator. Statements are built once per table and batch
// size and run as raw compiled queries (no per-row query building), sized under the dialect's
// bound-parameter limit (SQLite 32766, PostgreSQL 65535).
import { CompiledQuery, type Insertable } from 'kysely';
import type { DB } from '../db/index.js';
import { isPostgres } from '../db/index.js';
import type { Database } from '../db/schema.js';

type Row<K extends keyof Database> = Insertable<Database[K]>;

const MAX_ROWS = 500;

export class BatchInserter<K extends keyof Database> {
  readonly table: K;
  private readonly columns: string[];
  private readonly pg: boolean;
  private readonly rowsPerBatch: number;
  private values: unknown[] = [];
  private rows = 0;
  private fullSql: string | null = null;
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
    const limit = this.pg ? 65_535 : 32_766;
    this.rowsPerBatch = Math.max(1, Math.min(MAX_ROWS, Math.floor(limit / this.columns.length)));
  }

  private sqlFor(rows: number) {
    const cols = this.columns.map((c) => `"${c}"`).join(', ');
    const n = this.columns.length;
    const tuples: string[] = new Array(rows);
    let p = 1;
    for (let r = 0; r < rows; r++) {
      const ph: string[] = new Array(n);
      for (let c = 0; c < n; c++) ph[c] = this.pg ? `$${p++}` : '?';
      tuples[r] = `(${ph.join(', ')})`;
    }
    return `insert into "${this.table}" (${cols}) values ${tuples.join(', ')}`;
  }

  /** Queues a row; flushes when the batch is full. Await it. */
  add(row: Row<K>): Promise<void> | void {
    const r = row as Record<string, unknown>;
    if (!this.checked) {
      this.checked = true;
      const extra = Object.keys(r).filter((k) => !this.columns.includes(k));
      if (extra.length) throw new Error(`seed: ${this.table} row has columns not in the insert list: ${extra.join(', ')}`);
    }
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
    if (this.rows === this.rowsPerBatch) text = this.fullSql ??= this.sqlFor(this.rows);
    else text = this.sqlFor(this.rows);
    const params = this.values;
    const n = this.rows;
    this.values = [];
    this.rows = 0;
    const t = performance.now();
    await this.db.executeQuery(CompiledQuery.raw(text, params));
    this.ms += performance.now() - t;
    this.total += n;
  }
}
