// The database handle's type, apart from the code that opens it (so any file can name it).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type DB = Kysely<Database>;
