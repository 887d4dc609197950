// 001_core: the first release's tables: roles, countries, lookups, features, global settings, persons and
// their roles, customers and their subscriptions, devices with their configurations and messages,
// alarm reports, refresh tokens, verification codes, the outbox and the audit log.
import { type CreateTableBuilder, type Kysely, type Migration, PostgresAdapter } from 'kysely';

const isPg = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

type T = CreateTableBuilder<any, any>;
const text = (t: T, name: string, notNull = true) => t.addColumn(name, 'text', (c) => (notNull ? c.notNull() : c));
const int = (t: T, name: string, notNull = true, dflt?: number) =>
  t.addColumn(name, 'integer', (c) => {
    let col = notNull ? c.notNull() : c;
    if (dflt !== undefined) col = col.defaultTo(dflt);
    return col;
  });
const autoId = (db: Kysely<any>, t: T) =>
  isPg(db) ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

export const m001: Migration = {
  async up(db) {
    await db.schema
      .createTable('roles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'name'))
      .$call((t) => int(t, 'isDefault'))
      .$call((t) => int(t, 'order'))
      .execute();
    await db.schema
      .createTable('countries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'code'))
      .$call((t) => text(t, 'name'))
      .$call((t) => text(t, 'phoneNumberCode'))
      .execute();
    await db.schema
      .createTable('lookups')
      .$call((t) => text(t, 'kind'))
      .$call((t) => int(t, 'value'))
      .$call((t) => text(t, 'name'))
      .$call((t) => int(t, 'order'))
      .addPrimaryKeyConstraint('lookups_pk', ['kind', 'value'])
      .execute();
    await db.schema
      .createTable('features')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .$call((t) => int(t, 'isEnabled'))
      .execute();
    await db.schema
      .createTable('globalSettings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'value'))
      .execute();

    await db.schema
      .createTable('persons')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'tenantId'))
      .$call((t) => text(t, 'firstName'))
      .$call((t) => text(t, 'lastName'))
      .$call((t) => text(t, 'email'))
      .$call((t) => text(t, 'passwordHash', false))
      .$call((t) => int(t, 'isLocked', true, 0))
      .$call((t) => int(t, 'failedAttempts', true, 0))
      .$call((t) => text(t, 'lastLoginDate', false))
      .$call((t) => int(t, 'personStatus', true, 1))
      .$call((t) => int(t, 'loginMethod', true, 1))
      .$call((t) => int(t, 'twoFactorType', false))
      .$call((t) => text(t, 'twoFactorPhone', false))
      .$call((t) => text(t, 'phoneNumbers'))
      .$call((t) => text(t, 'profile'))
      .$call((t) => text(t, 'searchText'))
      .$call((t) => text(t, 'etag'))
      .$call((t) => text(t, 'createdAt'))
      .$call((t) => text(t, 'updatedAt'))
      .execute();
    await db.schema.createIndex('persons_email_uq').unique().on('persons').column('email').execute();
    await db.schema.createIndex('persons_tenant_idx').on('persons').columns(['tenantId', 'lastName']).execute();
    await db.schema.createIndex('persons_name_idx').on('persons').columns(['firstName', 'lastName']).execute();
    await db.schema.createIndex('persons_last_login_idx').on('persons').column('lastLoginDate').execute();
    await db.schema
      .createTable('personRoles')
      .addColumn('personId', 'text', (c) => c.notNull().references('persons.id').onDelete('cascade'))
      .addColumn('roleId', 'text', (c) => c.notNull().references('roles.id'))
      .addPrimaryKeyConstraint('personRoles_pk', ['personId', 'roleId'])
      .execute();
    await db.schema.createIndex('personRoles_role_idx').on('personRoles').columns(['roleId', 'personId']).execute();

    let cust = db.schema
      .createTable('customers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'tenantId'))
      .$call((t) => text(t, 'name'));
    for (const c of [
      'portalId',
      'phoneNumber',
      'salesforceId',
      'salesforceUrn',
      'accountManagerFullName',
      'customerSuccessManagerFullName',
      'addressLine1',
      'addressLine2',
      'city',
      'county',
      'postCode',
      'countryId',
    ])
      cust = text(cust, c, false);
    cust = int(cust, 'tier', false);
    cust = int(cust, 'status', false);
    for (const c of [
      'isMigratedAccount',
      'isSalesforceAccount',
      'isAutomaticEmailsPaused',
      'allowDeviceSubscriptionChanges',
      'enableDiscreetAlarmApp',
      'enableFallDetectionApp',
      'enableSmsActivityConfirmation',
      'enableAlarmReportIntelligence',
      'autoGenerateAlarmIntelligence',
      'nationalResponse',
      'globalResponse',
      'eurowatch',
      'translationServices',
      'checkInTimers',
      'teamBroadcast',
      'isWelfareCheckEnabled',
      'isFallDetectionEnabled',
      'isTravelSafeEnabled',
      'isTrackingEnabled',
      'isSureCamEnabled',
      'isSosDisabled',
    ])
      cust = int(cust, c, true, 0);
    cust = int(cust, 'trackingInterval', true, 15);
    for (const c of ['etag', 'deviceSubscriptionsEtag', 'appSubscriptionsEtag', 'createdAt', 'updatedAt']) cust = text(cust, c);
    await cust.execute();
    await db.schema.createIndex('customers_tenant_uq').unique().on('customers').column('tenantId').execute();
    await db.schema.createIndex('customers_name_idx').on('customers').column('name').execute();
    await db.schema.createIndex('customers_portal_idx').on('customers').column('portalId').execute();

    await db.schema
      .createTable('deviceSubscriptions')
      .addColumn('customerId', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .$call((t) => int(t, 'deviceType'))
      .$call((t) => int(t, 'purchased'))
      .addPrimaryKeyConstraint('deviceSubscriptions_pk', ['customerId', 'deviceType'])
      .execute();
    await db.schema
      .createTable('appSubscriptions')
      .addColumn('customerId', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
      .$call((t) => int(t, 'appSubscriptionType'))
      .$call((t) => int(t, 'purchased'))
      .addPrimaryKeyConstraint('appSubscriptions_pk', ['customerId', 'appSubscriptionType'])
      .execute();

    let dev = db.schema
      .createTable('devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'serialNumber'))
      .$call((t) => int(t, 'type'))
      .$call((t) => int(t, 'status'))
      .addColumn('customerId', 'text', (c) => c.references('customers.id'));
    for (const c of [
      'imei',
      'imsi',
      'phoneNumber',
      'simPhoneNumber',
      'simSerial',
      'simStatus',
      'supplier',
      'orderNumber',
      'assignedPersonId',
      'firmwareVersion',
      'lastConfigurationDate',
      'dateReceived',
    ])
      dev = text(dev, c, false);
    dev = int(dev, 'simTypeId', false);
    dev = int(dev, 'isUserAssigned', true, 0);
    for (const c of ['lastUpdated', 'addedToSystem', 'etag']) dev = text(dev, c);
    await dev.execute();
    await db.schema.createIndex('devices_serial_uq').unique().on('devices').column('serialNumber').execute();
    await db.schema.createIndex('devices_imei_idx').on('devices').column('imei').execute();
    await db.schema.createIndex('devices_phone_idx').on('devices').column('phoneNumber').execute();
    await db.schema.createIndex('devices_customer_idx').on('devices').columns(['customerId', 'serialNumber']).execute();
    await db.schema.createIndex('devices_status_idx').on('devices').columns(['status', 'serialNumber']).execute();
    await db.schema.createIndex('devices_type_idx').on('devices').columns(['type', 'serialNumber']).execute();
    await db.schema.createIndex('devices_order_idx').on('devices').column('orderNumber').execute();

    let cfg = db.schema.createTable('deviceConfigurations').addColumn('deviceId', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'));
    for (const c of ['isConnected', 'isTracking', 'isFallDetection', 'sosButton', 'smsBackup']) cfg = int(cfg, c, true, 0);
    for (const c of ['trackingSeconds', 'call1Type', 'call2Type']) cfg = int(cfg, c, false);
    for (const c of ['lastUpdated', 'fallDetectionSettings', 'firmwareVersion', 'call1Number', 'call2Number', 'primaryEndPoint', 'secondaryEndPoint'])
      cfg = text(cfg, c, false);
    cfg = text(cfg, 'etag');
    await cfg.execute();

    await db.schema
      .createTable('desiredConfigurations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('deviceId', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
      .$call((t) => text(t, 'payload'))
      .$call((t) => text(t, 'requestedBy', false))
      .$call((t) => text(t, 'requestedAt'))
      .$call((t) => text(t, 'appliedAt', false))
      .execute();
    await db.schema.createIndex('desiredConfigurations_device_idx').on('desiredConfigurations').columns(['deviceId', 'requestedAt']).execute();

    await db.schema
      .createTable('deviceMessages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('deviceId', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
      .$call((t) => text(t, 'deviceIdentity'))
      .$call((t) => text(t, 'serial'))
      .$call((t) => int(t, 'deviceType'))
      .$call((t) => text(t, 'date'))
      .$call((t) => text(t, 'message'))
      .$call((t) => int(t, 'signal', false))
      .$call((t) => int(t, 'battery', false))
      .$call((t) => text(t, 'properties'))
      .$call((t) => text(t, 'rawMessage'))
      .execute();
    await db.schema.createIndex('deviceMessages_identity_idx').on('deviceMessages').columns(['deviceIdentity', 'date']).execute();
    await db.schema.createIndex('deviceMessages_device_idx').on('deviceMessages').columns(['deviceId', 'date']).execute();

    let ar = db.schema
      .createTable('alarmReports')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .$call((t) => text(t, 'alarmId'))
      .addColumn('customerId', 'text', (c) => c.references('customers.id'));
    for (const c of ['customerAccountFullName', 'personFullName', 'alarmStarted', 'alarmClosed', 'location', 'profileSnapshot', 'etag']) ar = text(ar, c);
    for (const c of ['personId', 'deviceSerial', 'arcControllerId', 'arcControllerFullName', 'incomingCallPhoneNumber']) ar = text(ar, c, false);
    for (const c of ['alarmType', 'verificationType', 'verificationCategory', 'verificationStartedSeconds', 'verificationCompletedSeconds']) ar = int(ar, c);
    ar = int(ar, 'tier', false);
    ar = int(ar, 'deviceType', false);
    ar = int(ar, 'escalationPlanFollowed', true, 0);
    await ar.execute();
    await db.schema.createIndex('alarmReports_alarmId_uq').unique().on('alarmReports').column('alarmId').execute();
    await db.schema.createIndex('alarmReports_closed_idx').on('alarmReports').column('alarmClosed').execute();
    await db.schema.createIndex('alarmReports_customer_idx').on('alarmReports').columns(['customerId', 'alarmClosed']).execute();
    await db.schema.createIndex('alarmReports_person_idx').on('alarmReports').columns(['personId', 'alarmClosed']).execute();
    await db.schema.createIndex('alarmReports_controller_idx').on('alarmReports').columns(['arcControllerId', 'alarmClosed']).execute();

    const child = (name: string) =>
      db.schema
        .createTable(name)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('alarmReportId', 'text', (c) => c.notNull().references('alarmReports.id').onDelete('cascade'));
    await child('alarmCalls')
      .$call((t) => text(t, 'startTime'))
      .$call((t) => text(t, 'endTime'))
      .addColumn('duration', 'real', (c) => c.notNull())
      .$call((t) => text(t, 'line'))
      .$call((t) => text(t, 'number'))
      .$call((t) => text(t, 'participants'))
      .$call((t) => int(t, 'alarmCall', true, 0))
      .$call((t) => text(t, 'conferenceName', false))
      .$call((t) => text(t, 'records'))
      .execute();
    await child('alarmMemos')
      .$call((t) => text(t, 'startDate'))
      .$call((t) => int(t, 'durationInMinutes'))
      .$call((t) => text(t, 'displayName'))
      .$call((t) => text(t, 'textMemo', false))
      .$call((t) => text(t, 'voiceMemoId', false))
      .execute();
    await child('activityJournal')
      .$call((t) => text(t, 'date'))
      .$call((t) => text(t, 'creator'))
      .$call((t) => text(t, 'details'))
      .$call((t) => text(t, 'customProperties'))
      .execute();
    await child('alarmNotes')
      .$call((t) => text(t, 'note'))
      .$call((t) => text(t, 'createdDate'))
      .$call((t) => text(t, 'personId', false))
      .$call((t) => text(t, 'personFullName'))
      .$call((t) => text(t, 'personRoles'))
      .execute();
    for (const n of ['alarmCalls', 'alarmMemos', 'activityJournal', 'alarmNotes'])
      await db.schema.createIndex(`${n}_report_idx`).on(n).column('alarmReportId').execute();

    await db.schema
      .createTable('refreshTokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('personId', 'text', (c) => c.notNull().references('persons.id').onDelete('cascade'))
      .$call((t) => text(t, 'familyId'))
      .$call((t) => text(t, 'tokenHash'))
      .$call((t) => text(t, 'clientId'))
      .$call((t) => text(t, 'createdAt'))
      .$call((t) => text(t, 'expiresAt'))
      .$call((t) => text(t, 'usedAt', false))
      .$call((t) => text(t, 'revokedAt', false))
      .execute();
    await db.schema.createIndex('refreshTokens_hash_uq').unique().on('refreshTokens').column('tokenHash').execute();
    await db.schema.createIndex('refreshTokens_family_idx').on('refreshTokens').column('familyId').execute();

    await db.schema
      .createTable('verificationCodes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('personId', 'text', (c) => c.notNull().references('persons.id').onDelete('cascade'))
      .$call((t) => text(t, 'codeHash'))
      .$call((t) => text(t, 'createdAt'))
      .$call((t) => text(t, 'expiresAt'))
      .$call((t) => text(t, 'consumedAt', false))
      .execute();
    await db.schema.createIndex('verificationCodes_person_idx').on('verificationCodes').columns(['personId', 'createdAt']).execute();

    await db.schema
      .createTable('outbox')
      .$call((t) => autoId(db, t))
      .$call((t) => text(t, 'channel'))
      .$call((t) => text(t, 'recipient'))
      .$call((t) => text(t, 'subject'))
      .$call((t) => text(t, 'body'))
      .$call((t) => text(t, 'createdAt'))
      .$call((t) => text(t, 'sentAt', false))
      .$call((t) => text(t, 'error', false))
      .execute();
    await db.schema.createIndex('outbox_recipient_idx').on('outbox').columns(['recipient', 'id']).execute();

    await db.schema
      .createTable('auditLog')
      .$call((t) => autoId(db, t))
      .$call((t) => text(t, 'at'))
      .$call((t) => text(t, 'actorId', false))
      .$call((t) => text(t, 'action'))
      .$call((t) => text(t, 'entity'))
      .$call((t) => text(t, 'entityId', false))
      .$call((t) => text(t, 'details'))
      .execute();
    await db.schema.createIndex('auditLog_entity_idx').on('auditLog').columns(['entity', 'entityId']).execute();
  },
};
