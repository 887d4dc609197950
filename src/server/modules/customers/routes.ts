// Customer endpoints (spec document 2 §7 "Customer/query service" and the customer part of the
// "Stock service"): list, one customer, filters, duplicates, create, update, subscriptions,
// settings, administrators, e-mail backlog, CRM search, the customer's devices, exports, import to
// allocate and allocate-many. Shapes and error answers: src/shared/schemas/customers.ts (the
// contract). Queries: ./repo.ts; allocation: ./allocation.ts; e-mail pausing: ./email-pause.ts;
// CRM adapters: ./crm/.
import { deps, ApiError, badRequest, conflict, type Api, type AuthUser, type Ctx } from '../../http/api.js';
import { tx, type DB } from '../../db/index.js';
import { audit, auditMany, newEtag, newId } from '../../platform/util.js';
import { tenantScope, type TenantScope } from '../../auth/tenant-scope.js';
import { CODE, MSG } from '../../../shared/messages.js';
import { P, ROLE } from '../../../shared/permissions.js';
import { PROVIDER_TENANT_ID } from '../../../shared/tenants.js';
import { CUSTOMER_STATUSES, DEVICE_TYPES, isValidId, lookupName, normaliseId, TIER_TYPES } from '../../../shared/codes.js';
import type { EtagResponse } from '../../../shared/schemas/common.js';
import { deviceListBody, type BulkChangeResponse, type DeviceList, type DeviceDto, type DeviceMany } from '../../../shared/schemas/devices.js';
import {
  allocateManyBody,
  crmQueryBody,
  CRM_RESULT_LIMIT,
  CUSTOMER_CODE,
  CUSTOMER_TEXT,
  customerAdminListQuery,
  customerByIdQuery,
  customerCreateBody,
  customerDuplicatesQuery,
  customerExportBody,
  customerIdQuery,
  customerListBody,
  customerUpdateBody,
  customerUpdateQuery,
  emailBacklogQuery,
  settingsUpdateBody,
  settingsUpdateQuery,
  subscriptionsUpdateBody,
  subscriptionsUpdateQuery,
  SUPER_ADMIN_SETTINGS,
  type CrmAccount,
  type CustomerAdminList,
  type CustomerCreated,
  type CustomerDetails,
  type CustomerDto,
  type CustomerDuplicates,
  type CustomerFilters,
  type CustomerList,
  type CustomerPayload,
  type CustomerSettings,
  type CustomerSubscriptions,
  type EmailBacklog,
} from '../../../shared/schemas/customers.js';
import { phoneError, postCodeError } from '../../../shared/phone.js';
import { readFeatures } from '../reference/repo.js';
import { emailTaken, insertPerson } from '../persons/repo.js';
import { exportResponse, importJob } from '../../exports/routes.js';
import type { ExportPool } from '../../exports/pool.js';
import { EXPORT_LABEL } from '../../../shared/export-format.js';
import { listDevices, listDevicesBySerials } from '../devices/repo.js';
import {
  ADMINISTRATOR_ROLE_IDS,
  allocatedByType,
  countryExists,
  customerDetails,
  customerSubscriptions,
  findCustomerRow,
  findDuplicates,
  insertCustomer,
  listCustomerAdmins,
  listCustomers,
  payloadColumns,
  settingsColumns,
  settingsOf,
  toCustomerDto,
  updateCustomerRow,
  writeAppSubscriptions,
  writeDeviceSubscriptions,
  type CustomerRow,
} from './repo.js';
import { allocateMany, readSerialsFile } from './allocation.js';
import { backlogCount, releaseHeld } from './email-pause.js';
import { queueAdministratorWelcome } from '../../mail/administrator-welcome.js';
import { findCustomerByTenant } from '../../lib/customer-lookups.js';
import { crmAccountLink, crmAdapter } from './crm/index.js';
import type { Hub } from '../../realtime/hub.js';
import { scopedReader } from '../../realtime/records.js';

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

const customerNotFound = () => new ApiError(404, MSG.badUrl, CUSTOMER_CODE.notFound);

/** The columns a write changes, before and after (an audit entry's values). */
function changedValues(current: CustomerRow, next: Partial<CustomerRow>) {
  const keys = (Object.keys(next) as (keyof CustomerRow)[]).filter((k) => next[k] !== current[k]);
  return { before: Object.fromEntries(keys.map((k) => [k, current[k]])), after: Object.fromEntries(keys.map((k) => [k, next[k]])) };
}

/** The customer, within the caller's scope: another tenant's customer answers as not found. */
async function loadCustomer(db: DB, scope: TenantScope, id: string, lock = false): Promise<CustomerRow> {
  const c = await findCustomerRow(db, scope, id, lock);
  if (!c) throw customerNotFound();
  return c;
}

function pathCustomerId(c: Ctx) {
  const raw = c.req.param('customerId') ?? '';
  if (!isValidId(raw)) throw badRequest(CUSTOMER_TEXT.invalidId);
  return normaliseId(raw);
}

/** The customer the path names (:customerId) when the caller may see it: 400 for an id that is none, else 404. */
const pathCustomer = (c: Ctx, user: AuthUser) => loadCustomer(deps(c).db, tenantScope(user), pathCustomerId(c));

/** Throws 400 with every field message (paths prefixed) when `errors` is not empty. */
function failIf(errors: Record<string, string>, prefix = '') {
  const entries = Object.entries(errors);
  if (!entries.length) return;
  const out = Object.fromEntries(entries.map(([k, v]) => [prefix + k, v]));
  throw badRequest(entries[0]![1], CODE.validation, out);
}

/** The §5 rules of the customer payload besides the field types (see customerPayload in the contract). */
async function checkPayload(db: DB, p: CustomerPayload, current?: CustomerRow): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  if (p.isMigratedAccount && !p.portalReferenceNumber && !(current && current.isMigratedAccount === 1 && current.portalId))
    errors.portalReferenceNumber = CUSTOMER_TEXT.portalReferenceRequired;
  if (p.salesforceUrn && p.customerStatus == null) errors.customerStatus = CUSTOMER_TEXT.statusRequired;
  const countryId = p.addressDto?.countryId;
  if (countryId && !(await countryExists(db, countryId))) errors['addressDto.countryId'] = CUSTOMER_TEXT.unknownCountry;
  // Phone number and post code are read in the account's country (GB when it has none).
  const phone = phoneError(p.phoneNumber, countryId);
  if (phone) errors.phoneNumber = phone;
  const postCode = postCodeError(p.addressDto?.postCode, countryId);
  if (postCode) errors['addressDto.postCode'] = postCode;
  return errors;
}

const isSuperAdmin = (user: AuthUser) => user.role.includes(ROLE.SuperAdmin);

async function featureOn(db: DB, name: string) {
  return !!(await readFeatures(db, [name])).Features.find((f) => f.FeatureName === name)?.IsEnabled;
}

/** Who may follow a customer live (its tab open): the details read's permission and scoped look-up. */
export const customerReader = scopedReader(P.CustomerView, findCustomerRow);

export function customerRoutes(api: Api, exports: ExportPool, hub: Hub) {
  // ---------------------------------------------------------------- list and lookups
  api.post(
    '/api/v1/customer/get-list',
    {
      access: P.CustomerListView,
      json: customerListBody,
      sample: { json: { page: 1, pageSize: 10, searchValue: 'sample', tierIds: [1], statusIds: [1], migratedOnly: true, orderBy: 'Name', desc: true } },
    },
    async (c, { body, user }) => c.json((await listCustomers(deps(c).db, tenantScope(user), body)) satisfies CustomerList),
  );

  api.get(
    '/api/v1/customer/get-by-id',
    { access: P.CustomerView, query: customerByIdQuery, sample: { query: { id: SAMPLE_ID } } },
    async (c, { query, user }) => c.json(toCustomerDto(await loadCustomer(deps(c).db, tenantScope(user), query.id)) satisfies CustomerDto),
  );

  api.get(
    '/ps-admin/customers/get-details',
    { access: P.CustomerView, query: customerIdQuery, sample: { query: { CustomerId: SAMPLE_ID } } },
    async (c, { query, user }) => {
      const { db, config } = deps(c);
      const row = await loadCustomer(db, tenantScope(user), query);
      return c.json((await customerDetails(db, row, crmAccountLink(config.crm, row.salesforceId))) satisfies CustomerDetails);
    },
  );

  api.get('/ps-admin/customers/filters-all', { access: P.CustomerListView }, async (c) => {
    const body: CustomerFilters = {
      Tiers: TIER_TYPES.map((t) => ({ Value: t.Value, Name: t.Name })),
      Statuses: CUSTOMER_STATUSES.map((s) => ({ Value: s.Value, Name: s.Name })),
    };
    return c.json(body);
  });

  api.get(
    '/ps-admin/customers/get-duplicates',
    { access: P.CustomerCreate, query: customerDuplicatesQuery, sample: { query: { Name: 'Sample', PortalReferenceNumber: '1', SalesforceUrn: 'URN1' } } },
    async (c, { query }) =>
      c.json(
        (await findDuplicates(deps(c).db, {
          name: query.Name,
          portalReference: query.PortalReferenceNumber,
          urn: query.SalesforceUrn,
        })) satisfies CustomerDuplicates,
      ),
  );

  // ---------------------------------------------------------------- create / update
  api.post(
    '/api/v1/customer/create',
    { access: P.CustomerCreate, json: customerCreateBody, sample: { json: { name: 'Sample customer', isMigratedAccount: false } } },
    async (c, { body, user }) => {
      const { db, config, outbox } = deps(c);
      failIf(await checkPayload(db, body));
      const tenantId = body.tenantId ?? newId();
      if (tenantId === PROVIDER_TENANT_ID || (await db.selectFrom('customers').select('id').where('tenantId', '=', tenantId).executeTakeFirst()))
        failIf({ tenantId: CUSTOMER_TEXT.invalidTenant });
      const admin = body.administrator;
      const emailConflict = () =>
        new ApiError(409, CUSTOMER_TEXT.administratorEmailTaken, CODE.duplicateEmail, { 'administrator.emailAddress': CUSTOMER_TEXT.administratorEmailTaken });
      if (admin && (await emailTaken(db, admin.emailAddress))) throw emailConflict();
      const now = config.now();
      const at = now.toISOString();
      const cols = payloadColumns(body);
      let created: CustomerCreated;
      try {
        created = await tx(db, async (trx) => {
          const r = await insertCustomer(trx, cols, tenantId, at);
          await audit(trx, { actorId: user.id, action: 'customer.create', entity: 'customer', entityId: r.id, at: now, details: { name: cols.name } });
          if (admin) {
            const personId = newId();
            await insertPerson(trx, {
              id: personId,
              tenantId,
              firstName: admin.firstName,
              lastName: admin.lastName,
              email: admin.emailAddress,
              roleIds: ADMINISTRATOR_ROLE_IDS,
              etag: newEtag(),
              at,
            });
            await queueAdministratorWelcome(trx, outbox, config, { email: admin.emailAddress, firstName: admin.firstName, customerName: cols.name });
            await audit(trx, {
              actorId: user.id,
              action: 'person.create',
              entity: 'person',
              entityId: personId,
              at: now,
              details: { tenantId, email: admin.emailAddress, roles: ['AdminRole', 'PortalUserRole'] },
            });
          }
          return { Id: r.id, Etag: r.etag, TenantId: r.tenantId };
        });
      } catch (e) {
        const code = (e as { code?: unknown } | null)?.code;
        if (admin && (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE')) throw emailConflict();
        throw e;
      }
      if (admin) outbox.flush(db);
      return c.json(created satisfies CustomerCreated, 201);
    },
  );

  api.put(
    '/api/v1/customer/update',
    {
      access: P.CustomerManage,
      query: customerUpdateQuery,
      json: customerUpdateBody,
      sample: { query: { customerId: SAMPLE_ID }, json: { customerAccount: { name: 'Sample customer', isMigratedAccount: false }, etag: '"sample"' } },
    },
    async (c, { query, body, user }) => {
      const { db, config } = deps(c);
      const now = config.now();
      const etag = await tx(db, async (trx) => {
        const current = await loadCustomer(trx, tenantScope(user), query.customerId, true);
        if (current.etag !== body.etag) throw conflict();
        failIf(await checkPayload(trx, body.customerAccount, current), 'customerAccount.');
        const cols = payloadColumns(body.customerAccount, current);
        const next = await updateCustomerRow(trx, current.id, body.etag, cols, now.toISOString());
        if (!next) throw conflict();
        await audit(trx, {
          actorId: user.id,
          action: 'customer.update',
          entity: 'customer',
          entityId: current.id,
          at: now,
          details: changedValues(current, cols),
        });
        return next;
      });
      await hub.recordsChanged(user, [{ kind: 'customer', id: query.customerId, what: 'change' }], now);
      return c.json({ Etag: etag } satisfies EtagResponse);
    },
  );

  // ---------------------------------------------------------------- subscriptions
  api.get(
    '/ps-admin/customers/get-subscriptions',
    { access: P.CustomerView, query: customerIdQuery, sample: { query: { CustomerId: SAMPLE_ID } } },
    async (c, { query, user }) => {
      const { db } = deps(c);
      return c.json((await customerSubscriptions(db, await loadCustomer(db, tenantScope(user), query))) satisfies CustomerSubscriptions);
    },
  );

  api.put(
    '/api/v1/customer/subscriptions/update',
    {
      access: P.CustomerManage,
      query: subscriptionsUpdateQuery,
      json: subscriptionsUpdateBody,
      sample: {
        query: { customerId: SAMPLE_ID },
        json: { deviceSubscriptions: { subscriptions: [{ deviceType: 620, purchased: 1 }] }, deviceSubscriptionsEtag: '"sample"' },
      },
    },
    async (c, { query, body, user }) => {
      const { db, config } = deps(c);
      const now = config.now();
      const checkInTimersAllowed = await featureOn(db, 'CustomCheckInTime');
      const out = await tx(db, async (trx) => {
        const cur = await loadCustomer(trx, tenantScope(user), query.customerId, true);
        // Each section sent needs its etag; every etag sent must be current (spec §7: the page fetches them fresh first).
        const missing: Record<string, string> = {};
        if (body.deviceSubscriptions && !body.deviceSubscriptionsEtag) missing.deviceSubscriptionsEtag = CUSTOMER_TEXT.etagRequired;
        if (body.appSubscriptions && !body.appSubscriptionsEtag) missing.appSubscriptionsEtag = CUSTOMER_TEXT.etagRequired;
        if (body.additionalServices && !body.customerEtag) missing.customerEtag = CUSTOMER_TEXT.etagRequired;
        failIf(missing);
        const stale: Record<string, string> = {};
        if (body.customerEtag && body.customerEtag !== cur.etag) stale.customerEtag = MSG.staleEtag;
        if (body.deviceSubscriptionsEtag && body.deviceSubscriptionsEtag !== cur.deviceSubscriptionsEtag) stale.deviceSubscriptionsEtag = MSG.staleEtag;
        if (body.appSubscriptionsEtag && body.appSubscriptionsEtag !== cur.appSubscriptionsEtag) stale.appSubscriptionsEtag = MSG.staleEtag;
        if (Object.keys(stale).length) throw new ApiError(409, MSG.staleEtag, CODE.conflict, stale);
        const values: Partial<CustomerRow> = {};
        if (body.deviceSubscriptions) {
          if (body.force === false) {
            const held = await allocatedByType(trx, cur.id);
            const below: Record<string, string> = {};
            const names: string[] = [];
            for (const s of body.deviceSubscriptions.subscriptions) {
              const allocated = held.get(s.deviceType)?.allocated ?? 0;
              if (allocated > s.purchased) {
                const name = lookupName(DEVICE_TYPES, s.deviceType);
                below[String(s.deviceType)] = CUSTOMER_TEXT.belowAllocation(name, allocated, s.purchased);
                names.push(name);
              }
            }
            if (names.length) throw new ApiError(422, CUSTOMER_TEXT.belowAllocationMany(names.join(', ')), CUSTOMER_CODE.allocationExceeds, below);
          }
          await writeDeviceSubscriptions(trx, cur.id, body.deviceSubscriptions.subscriptions);
          values.deviceSubscriptionsEtag = newEtag();
        }
        if (body.appSubscriptions) {
          const f = body.appSubscriptions.appFeatures;
          Object.assign(values, {
            isWelfareCheckEnabled: +f.isWelfareCheckEnabled,
            isFallDetectionEnabled: +f.isFallDetectionEnabled,
            isTravelSafeEnabled: +f.isTravelSafeEnabled,
            isTrackingEnabled: +f.isTrackingEnabled,
            isSureCamEnabled: +f.isSureCamEnabled,
            trackingInterval: f.isTrackingEnabled ? f.trackingInterval : f.trackingInterval || cur.trackingInterval,
            isSosDisabled: +f.isSosDisabled,
          } satisfies Partial<CustomerRow>);
          await writeAppSubscriptions(trx, cur.id, body.appSubscriptions.subscriptions);
          values.appSubscriptionsEtag = newEtag();
        }
        if (body.additionalServices) {
          const s = body.additionalServices;
          if (s.checkInTimers && !cur.checkInTimers && !checkInTimersAllowed)
            throw new ApiError(422, CUSTOMER_TEXT.featureDisabled('CustomCheckInTime'), CUSTOMER_CODE.featureDisabled, {
              'additionalServices.checkInTimers': CUSTOMER_TEXT.featureDisabled('CustomCheckInTime'),
            });
          Object.assign(values, {
            nationalResponse: +s.nationalResponse,
            globalResponse: +s.globalResponse,
            eurowatch: +s.eurowatch,
            translationServices: +s.translationServices,
            checkInTimers: +s.checkInTimers,
            teamBroadcast: +s.teamBroadcast,
          } satisfies Partial<CustomerRow>);
          values.etag = newEtag();
        }
        if (Object.keys(values).length) {
          const r = await trx
            .updateTable('customers')
            .set({ ...values, updatedAt: now.toISOString() })
            .where('id', '=', cur.id)
            .where('etag', '=', cur.etag)
            .where('deviceSubscriptionsEtag', '=', cur.deviceSubscriptionsEtag)
            .where('appSubscriptionsEtag', '=', cur.appSubscriptionsEtag)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) throw conflict();
          await audit(trx, {
            actorId: user.id,
            action: 'customer.subscriptions-update',
            entity: 'customer',
            entityId: cur.id,
            at: now,
            details: { deviceSubscriptions: body.deviceSubscriptions, appSubscriptions: body.appSubscriptions, additionalServices: body.additionalServices },
          });
        }
        return { subscriptions: await customerSubscriptions(trx, await loadCustomer(trx, tenantScope(user), cur.id)), changed: Object.keys(values).length > 0 };
      });
      if (out.changed) await hub.recordsChanged(user, [{ kind: 'customer', id: query.customerId, what: 'change' }], now);
      return c.json(out.subscriptions satisfies CustomerSubscriptions);
    },
  );

  // ---------------------------------------------------------------- settings
  api.get(
    '/ps-admin/customers/get-settings',
    { access: P.CustomerView, query: customerIdQuery, sample: { query: { CustomerId: SAMPLE_ID } } },
    async (c, { query, user }) => c.json(settingsOf(await loadCustomer(deps(c).db, tenantScope(user), query)) satisfies CustomerSettings),
  );

  api.put(
    '/api/v1/customer/settings/update',
    {
      access: P.CustomerManage,
      query: settingsUpdateQuery,
      json: settingsUpdateBody,
      sample: {
        query: { customerId: SAMPLE_ID },
        json: {
          customerEtag: '"sample"',
          settings: {
            IsAutomaticEmailsPaused: false,
            AllowDeviceSubscriptionChanges: false,
            EnableDiscreetAlarmApp: false,
            EnableFallDetectionApp: false,
            EnableSmsActivityConfirmation: false,
            EnableAlarmReportIntelligence: false,
            AutoGenerateAlarmIntelligence: false,
          },
        },
      },
    },
    async (c, { query, body, user }) => {
      const { db, config, outbox } = deps(c);
      const now = config.now();
      const [ariOn, autoOn] = await Promise.all([featureOn(db, 'EnableAlarmReportIntelligence'), featureOn(db, 'AutoGenerateAlarmReportIntelligence')]);
      const { out, released } = await tx(db, async (trx) => {
        const cur = await loadCustomer(trx, tenantScope(user), query.customerId, true);
        if (cur.etag !== body.customerEtag) throw conflict();
        const before = settingsOf(cur).Settings;
        const s = body.settings;
        if (!isSuperAdmin(user)) {
          const changed = SUPER_ADMIN_SETTINGS.filter((k) => s[k] !== before[k]);
          if (changed.length)
            throw new ApiError(403, MSG.forbidden, CODE.forbidden, Object.fromEntries(changed.map((k) => [`settings.${k}`, CUSTOMER_TEXT.superAdminOnly])));
        }
        const off: Record<string, string> = {};
        if (s.EnableAlarmReportIntelligence && !before.EnableAlarmReportIntelligence && !ariOn)
          off['settings.EnableAlarmReportIntelligence'] = CUSTOMER_TEXT.featureDisabled('EnableAlarmReportIntelligence');
        if (s.EnableAlarmReportIntelligence && s.AutoGenerateAlarmIntelligence && !before.AutoGenerateAlarmIntelligence && !autoOn)
          off['settings.AutoGenerateAlarmIntelligence'] = CUSTOMER_TEXT.featureDisabled('AutoGenerateAlarmReportIntelligence');
        const first = Object.values(off)[0];
        if (first) throw new ApiError(422, first, CUSTOMER_CODE.featureDisabled, off);
        const cols = settingsColumns(s);
        const etag = await updateCustomerRow(trx, cur.id, body.customerEtag, cols, now.toISOString());
        if (!etag) throw conflict();
        const released = before.IsAutomaticEmailsPaused && !s.IsAutomaticEmailsPaused ? await releaseHeld(trx, cur.tenantId, now) : 0;
        const changed = (Object.keys(s) as (keyof typeof s)[]).filter((k) => s[k] !== before[k]);
        await audit(trx, {
          actorId: user.id,
          action: 'customer.settings-update',
          entity: 'customer',
          entityId: cur.id,
          at: now,
          details: {
            before: Object.fromEntries(changed.map((k) => [k, before[k]])),
            after: Object.fromEntries(changed.map((k) => [k, s[k]])),
            released,
          },
        });
        return { out: settingsOf(await loadCustomer(trx, tenantScope(user), cur.id)), released };
      });
      if (released) outbox.flush(db);
      await hub.recordsChanged(user, [{ kind: 'customer', id: query.customerId, what: 'change' }], now);
      return c.json(out satisfies CustomerSettings);
    },
  );

  // ---------------------------------------------------------------- administrators and e-mail backlog
  api.get(
    '/ps-admin/persons/get-customer-admin-list',
    {
      access: P.CustomerView,
      query: customerAdminListQuery,
      sample: { query: { TenantId: SAMPLE_ID, Page: '1', PageSize: '10', Desc: 'true', OrderBy: 'UserName' } },
    },
    async (c, { query, user }) => {
      const { db } = deps(c);
      // Only a customer's tenant: this list never shows provider staff.
      if (!(await findCustomerByTenant(db, tenantScope(user), query.TenantId))) throw customerNotFound();
      return c.json((await listCustomerAdmins(db, tenantScope(user), query)) satisfies CustomerAdminList);
    },
  );

  api.get(
    '/ps-admin/emails/get-backlog-count',
    { access: P.CustomerView, query: emailBacklogQuery, sample: { query: { TenantId: SAMPLE_ID } } },
    async (c, { query, user }) => c.json({ count: await backlogCount(deps(c).db, tenantScope(user), query.TenantId) } satisfies EmailBacklog),
  );

  // ---------------------------------------------------------------- CRM
  api.post('/api/v1/salesforce/account/query', { access: P.CustomerView, json: crmQueryBody, sample: { json: { query: 'sample' } } }, async (c, { body }) => {
    const { db, config } = deps(c);
    const accounts: CrmAccount[] = await crmAdapter(db, config.crm).search(body.query, CRM_RESULT_LIMIT);
    return c.json(accounts);
  });

  // ---------------------------------------------------------------- the customer's devices
  api.post(
    '/api/v1/customer/get-device-list/:customerId',
    { access: P.CustomerView, json: deviceListBody, sample: { json: { page: 1, pageSize: 10 } } },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const cust = await pathCustomer(c, user);
      return c.json((await listDevices(db, tenantScope(user), body, config.now(), cust.id)) satisfies DeviceList);
    },
  );

  // Exports: jobs of the export pool, streamed as they are written (src/server/exports).
  api.post('/api/v1/customer/export/list-with-filters', { access: P.CustomerExport, json: customerExportBody, sample: { json: {} } }, (c, { body, user }) =>
    exportResponse(c, exports, user, { kind: 'customers', filter: body }, EXPORT_LABEL.customers, MSG.customerExportFailed),
  );

  api.post(
    '/api/v1/customer/export/device-list/:customerId',
    { access: P.DeviceExport, json: deviceListBody, sample: { json: { page: 1, pageSize: 10 } } },
    async (c, { body, user }) => {
      const cust = await pathCustomer(c, user);
      const job = { kind: 'devices', filter: body, customerId: cust.id, now: deps(c).config.now().toISOString() } as const;
      return exportResponse(c, exports, user, job, EXPORT_LABEL.devices, MSG.deviceExportFailed);
    },
  );

  // ---------------------------------------------------------------- allocation
  api.post(
    '/api/v1/import/devices-to-allocate/:customerId',
    { access: P.CustomerManage, bodyLimit: 'upload', sample: { form: { File: 'SerialNumber\nSAMPLE-SERIAL\n' } } },
    // A job of the export pool (progress, cancel, one per user): parsed on an import thread, then
    // looked up a step at a time.
    async (c, { user }) => {
      const { db } = deps(c);
      await pathCustomer(c, user);
      return importJob(c, exports, user, async (job) => {
        const serials = await readSerialsFile(c, exports, job);
        job.counted(serials.length);
        const devices: DeviceDto[] = [];
        for (let i = 0; i < serials.length; i += job.size) {
          devices.push(...(await listDevicesBySerials(db, tenantScope(user), serials.slice(i, i + job.size))));
          await job.step(devices.length);
        }
        return c.json({ devices } satisfies DeviceMany);
      });
    },
  );

  api.post(
    '/api/v1/device/allocate-many',
    {
      access: P.CustomerManage,
      bodyLimit: 'upload',
      json: allocateManyBody,
      sample: { json: { customerId: SAMPLE_ID, devices: [{ id: SAMPLE_ID, etag: '"sample"', typeValue: 620 }], orderNumber: 'PO-1' } },
    },
    async (c, { body, user }) => {
      const { db, config } = deps(c);
      const now = config.now();
      const out = await tx(db, async (trx) => {
        const cust = await loadCustomer(trx, tenantScope(user), body.customerId, true);
        const { history, ...r } = await allocateMany(trx, { ...body, customerId: cust.id }, now);
        // The customer's History: one entry for the allocation; each device's: its own, with before and after.
        await audit(trx, {
          actorId: user.id,
          action: 'device.allocate',
          entity: 'customer',
          entityId: cust.id,
          at: now,
          details: { orderNumber: body.orderNumber, forced: body.force !== false, devices: r.updated, ids: r.devices.map((d) => d.id) },
        });
        await auditMany(
          trx,
          { actorId: user.id, action: 'device.allocate', entity: 'device', at: now },
          history.map((h) => ({ entityId: h.id, details: { before: h.before, after: h.after } })),
        );
        return r;
      });
      await hub.recordsChanged(
        user,
        [
          { kind: 'customer', id: body.customerId, what: 'change' },
          ...out.devices.map((d) => ({ kind: 'device' as const, id: d.id, what: 'change' as const })),
        ],
        now,
      );
      return c.json(out satisfies BulkChangeResponse);
    },
  );
}
