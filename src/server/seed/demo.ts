import type { DB } from '../db/index.js';

export type DemoOptions = { seed: number; scale: number; password: string; log: (e: Record<string, unknown>) => void; now: Date };

/** Generates the deterministic demo data set. Owner: seed work (not written yet). */
export async function seedDemoData(db: DB, opts: DemoOptions): Promise<{ ms: number; counts: Record<string, number> }> {
  void db; void opts;
  throw new Error('demo data generator not implemented yet');
}

/** True when the database already holds demo (or any) persons. */
export async function hasData(db: DB) {
  return (await db.selectFrom('persons').select('id').limit(1).execute()).length > 0;
}
