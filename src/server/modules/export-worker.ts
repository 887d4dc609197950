// The export pool's thread module: registers every module's export and import definitions in this
// thread, then runs the pool's tasks (exports/worker.ts).
import './export-definitions.js';

export { default, parseImport, writeImport } from '../exports/worker.js';
export type { ImportWriteInput, WorkerInput } from '../exports/worker.js';
