// 009_customers: what the customer area needs besides the tables of 001.
//   - outbox.heldTenantId: an e-mail to a person of a customer whose e-mail delivery is paused
//     waits with the customer's tenant id here; the relay skips such rows, the backlog count counts
//     them, and turning the pause off clears the column (the relay then sends them).
//   - crmAccounts: the embedded CRM directory behind POST /api/v1/salesforce/account/query when no
//     Salesforce is configured (name, URN, address, phone, managers, tier), searched by lower-cased
//     name and URN.
//   - lower(name) / lower(salesforceUrn) indexes on customers for the duplicates check.
//
// Imports nothing outside db/migrations/: `isPg` is the same test as `isPostgres` of db/dialect.ts.
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export const m009: Migration = {
  async up(db) {
    await db.schema.alterTable('outbox').addColumn('heldTenantId', 'text').execute();
    await db.schema.createIndex('outbox_held_idx').on('outbox').columns(['heldTenantId', 'id']).execute();

    let crm = db.schema.createTable('crmAccounts').addColumn('id', 'text', (c) => c.primaryKey());
    crm = crm.addColumn('name', 'text', (c) => c.notNull());
    for (const c of [
      'urn',
      'streetLine1',
      'streetLine2',
      'county',
      'city',
      'postalCode',
      'country',
      'phone',
      'accountManagerFullName',
      'customerSuccessManagerFullName',
    ])
      crm = crm.addColumn(c, 'text');
    crm = crm.addColumn('customerSuccessTier', 'integer');
    crm = crm.addColumn('searchName', 'text', (c) => c.notNull());
    await crm.execute();
    const collate = isPg(db) ? sql.raw(' collate "C"') : sql.raw('');
    // Prefix ranges on the lower-cased name and URN (byte order in both dialects).
    await sql`create index "crmAccounts_name_idx" on "crmAccounts" ("searchName"${collate})`.execute(db);
    await sql`create index "crmAccounts_urn_idx" on "crmAccounts" (lower("urn")${collate})`.execute(db);

    await sql`create index "customers_lower_name_idx" on "customers" (lower("name")${collate})`.execute(db);
    await sql`create index "customers_lower_urn_idx" on "customers" (lower("salesforceUrn")${collate})`.execute(db);
    await db.schema.createIndex('customers_tier_idx').on('customers').columns(['tier', 'name']).execute();
    await db.schema.createIndex('customers_status_idx').on('customers').columns(['status', 'name']).execute();
  },
};
