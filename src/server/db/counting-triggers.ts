// The triggers that keep a counting table in the writing transaction (the alarm statistics,
// the alarm list's names, the monthly tops of the analyses): every insert into the watched table
// adds the new row's counts, every delete takes the old row's off, and an update of a watched
// column does both. SQLite: three triggers; PostgreSQL: one plpgsql function and two triggers.
// The triggers in the database are the ones migrations 013, 021 and 022 created, so the helper is
// their frozen one (db/migrations/lib/counting-triggers.ts): the live code drops and names them
// with the same code that made them.
export { countingTriggerNames, createCountingTriggers, dropCountingTriggers, type CountingTriggers } from './migrations/lib/counting-triggers.js';
