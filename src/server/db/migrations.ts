// The database's migrations in the order they run, and the migrator. Each migration is a file of
// db/migrations/ that imports nothing but kysely and its neighbours there (db/migrations/lib/ holds
// frozen copies of the helpers some of them were written with): a released migration is history
// and never changes (tests/unit/db/migration-checksums.test.ts). A new migration: a new file with the
// next number, one import line and one line at the end of the list below, and its checksum
// (docs/development.md, "Database migrations").
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { m001 } from './migrations/001-initial.js';
import { m002 } from './migrations/002-search.js';
import { m003 } from './migrations/003-person-sort.js';
import { m004 } from './migrations/004-refresh-token-person.js';
import { m005 } from './migrations/005-auth-hardening.js';
import { m006 } from './migrations/006-captcha.js';
import { m007 } from './migrations/007-device-indexes.js';
import { m008 } from './migrations/008-alarm-reports.js';
import { m009 } from './migrations/009-customers.js';
import { m010 } from './migrations/010-live.js';
import { m011 } from './migrations/011-sso.js';
import { m012 } from './migrations/012-customer-admin-role.js';
import { m013 } from './migrations/013-alarm-stats.js';
import { m014 } from './migrations/014-device-list.js';
import { m015 } from './migrations/015-scheduled-reports.js';
import { m017 } from './migrations/017-alarm-analysis.js';
import { m018 } from './migrations/018-sso-domain-customer.js';
import { m020 } from './migrations/020-device-customer-sort.js';
import { m021 } from './migrations/021-management-report.js';
import { m022 } from './migrations/022-alarm-list-lookups.js';
import { m023 } from './migrations/023-device-serial-cover.js';
import { m025 } from './migrations/025-alarm-list-covering.js';
import { m026 } from './migrations/026-phone-key-plpgsql.js';
import { m027 } from './migrations/027-device-messages-identity.js';
import { m028 } from './migrations/028-schedule-run-lease.js';
import { m029 } from './migrations/029-device-search-runs.js';
import { m030 } from './migrations/030-device-daily-usage.js';
import { m031 } from './migrations/031-device-filter-sort-indexes.js';
import { m032 } from './migrations/032-device-fleet-state.js';
import { m034 } from './migrations/034-device-filter-first-indexes.js';
import { m035 } from './migrations/035-device-type-last-config-indexes.js';
import { m036 } from './migrations/036-device-id-serial-cover.js';
import { m037 } from './migrations/037-fleet-state-serial.js';
import { m038 } from './migrations/038-people-list-counts-sorts.js';
import { m039 } from './migrations/039-person-list-search.js';
import { m040 } from './migrations/040-list-search-keys.js';
import { m041 } from './migrations/041-search-keys-order.js';

/** Every migration by the name Kysely records, in the order they run. Add new ones at the end with the next number. */
export const migrations: Record<string, Migration> = {
  '001_core': m001,
  '002_search': m002,
  '003_person_sort': m003,
  '004_refresh_token_person': m004,
  '005_auth_hardening': m005,
  '006_captcha': m006,
  '007_device_indexes': m007,
  '008_alarm_reports': m008,
  '009_customers': m009,
  '010_live': m010,
  '011_sso': m011,
  '012_customer_admin_role': m012,
  '013_alarm_stats': m013,
  '014_device_list': m014,
  '015_scheduled_reports': m015,
  '017_alarm_analysis': m017,
  '018_sso_domain_customer': m018,
  '020_device_customer_sort': m020,
  '021_management_report': m021,
  '022_alarm_list_lookups': m022,
  '023_device_serial_cover': m023,
  '025_alarm_list_covering': m025,
  '026_phone_key_plpgsql': m026,
  '027_device_messages_identity': m027,
  '028_schedule_run_lease': m028,
  '029_device_search_runs': m029,
  '030_device_daily_usage': m030,
  '031_device_filter_sort_indexes': m031,
  '032_device_fleet_state': m032,
  '034_device_filter_first_indexes': m034,
  '035_device_type_last_config_indexes': m035,
  '036_device_id_serial_cover': m036,
  '037_fleet_state_serial': m037,
  '038_people_list_counts_sorts': m038,
  '039_person_list_search': m039,
  '040_list_search_keys': m040,
  '041_search_keys_order': m041,
};

class StaticProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/**
 * Runs the migrations the database has not taken, in order. A migration never runs after one that
 * comes later in the list (decision "Migrations run in order", docs/decisions/storage-and-migrations.md):
 * Kysely stops with "corrupted migrations" on a database that has a later one but lacks an earlier one.
 */
export async function migrateToLatest(db: Kysely<any>) {
  const migrator = new Migrator({ db, provider: new StaticProvider(), allowUnorderedMigrations: false });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${String((error as Error).message ?? error)}`);
  }
}
