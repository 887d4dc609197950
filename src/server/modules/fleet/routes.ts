// Fleet health (ours; contract: src/shared/schemas/fleet.ts): the counts and customers of the
// Fleet Health page, and the thresholds — the provider's (Provider Settings) and a customer's
// override (the customer's Settings tab). Each threshold change records an audit entry with its
// values before and after in the same transaction. Queries: ./repo.ts. The usage report of a
// customer (./usage-report.ts; its .xlsx through the export pool, ./usage-export.ts): provider
// staff with AdminPanel.UsageReport.View, any customer; the reads are narrowed by the caller's
// tenant scope, so a customer outside it answers 404 like an unknown one.
import { deps, notFound, type Api } from '../../http/api.js';
import { tenantScope } from '../../auth/tenant-scope.js';
import { exportResponse } from '../../exports/routes.js';
import type { ExportPool } from '../../exports/pool.js';
import { USAGE_TEXT } from '../../../shared/messages.js';
import { usageReportExportBody, usageReportQuery, type UsageReport } from '../../../shared/schemas/usage-report.js';
import { customerInScope, usageReport } from './usage-report.js';
import { USAGE_EXPORT_LABEL } from './usage-export.js';
import { tx } from '../../db/index.js';
import { audit } from '../../platform/util.js';
import type { Hub } from '../../realtime/hub.js';
import { P } from '../../../shared/permissions.js';
import type { MessageResponse } from '../../../shared/schemas/common.js';
import {
  customerThresholdsBody,
  customerThresholdsQuery,
  FLEET_DEFAULTS,
  FLEET_TEXT,
  THRESHOLD_KEYS,
  providerThresholdsBody,
  type CustomerThresholdsDto,
  type FleetThresholds,
  type ProviderThresholdsDto,
} from '../../../shared/schemas/fleet.js';
import { customerOverride, fleetHealth, providerThresholds, setCustomerOverride, setProviderThresholds } from './repo.js';

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const ok = (Message: string): MessageResponse => ({ Content: { Message } });

export function fleetRoutes(api: Api, hub: Hub, exports: ExportPool) {
  api.get('/ps-admin/fleet-health', { access: P.FleetHealthView }, async (c) => {
    const d = deps(c);
    return c.json(await fleetHealth(d.db, d.config.now()));
  });

  api.get('/ps-admin/fleet-health/thresholds', { access: P.SettingsView }, async (c) => {
    const body: ProviderThresholdsDto = { Thresholds: await providerThresholds(deps(c).db), Defaults: FLEET_DEFAULTS };
    return c.json(body);
  });

  api.put(
    '/ps-admin/fleet-health/thresholds',
    { access: P.SettingsManage, json: providerThresholdsBody, sample: { json: FLEET_DEFAULTS } },
    async (c, { body, user }) => {
      const d = deps(c);
      const at = d.config.now();
      const values = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, body[k]])) as FleetThresholds;
      await tx(d.db, async (trx) => {
        const before = await setProviderThresholds(trx, values, at);
        await audit(trx, {
          actorId: user.id,
          action: 'fleet-thresholds.update',
          entity: 'globalSetting',
          entityId: 'fleetThresholds',
          at,
          details: { before: before ?? null, after: values },
        });
      });
      return c.json(ok(FLEET_TEXT.providerSaved));
    },
  );

  api.get(
    '/ps-admin/customers/fleet-thresholds',
    { access: P.CustomerView, query: customerThresholdsQuery, sample: { query: { customerId: SAMPLE_ID } } },
    async (c, { query }) => {
      const db = deps(c).db;
      if (!(await db.selectFrom('customers').select('id').where('id', '=', query.customerId).executeTakeFirst())) throw notFound(FLEET_TEXT.customerNotFound);
      const [Override, Provider] = await Promise.all([customerOverride(db, query.customerId), providerThresholds(db)]);
      const Effective = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, Override[k] ?? Provider[k]])) as FleetThresholds;
      const body: CustomerThresholdsDto = { Override, Provider, Effective };
      return c.json(body);
    },
  );

  api.put(
    '/ps-admin/customers/fleet-thresholds',
    { access: P.CustomerManage, json: customerThresholdsBody, sample: { json: { customerId: SAMPLE_ID, silentHours: 48 } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const at = d.config.now();
      const { customerId, ...rest } = body;
      const values = Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, rest[k] ?? null])) as Parameters<typeof setCustomerOverride>[2];
      await tx(d.db, async (trx) => {
        if (!(await trx.selectFrom('customers').select('id').where('id', '=', customerId).executeTakeFirst())) throw notFound(FLEET_TEXT.customerNotFound);
        const before = await setCustomerOverride(trx, customerId, values, at);
        await audit(trx, {
          actorId: user.id,
          action: 'fleet-thresholds.update',
          entity: 'customer',
          entityId: customerId,
          at,
          details: { before: before ?? null, after: values },
        });
      });
      await hub.recordsChanged(user, [{ kind: 'customer', id: customerId, what: 'change' }], at);
      return c.json(ok(FLEET_TEXT.customerSaved));
    },
  );

  api.get(
    '/ps-admin/customers/usage-report',
    { access: P.UsageReportView, query: usageReportQuery, sample: { query: { customerId: SAMPLE_ID, month: '2026-10' } } },
    async (c, { query, user }) => {
      const d = deps(c);
      const report = await usageReport(d.db, tenantScope(user), { customerId: query.customerId, month: query.month, now: d.config.now() });
      if (!report) throw notFound(USAGE_TEXT.customerNotFound);
      return c.json(report satisfies UsageReport);
    },
  );

  api.post(
    '/ps-admin/customers/usage-report/export',
    { access: P.UsageReportView, json: usageReportExportBody, sample: { json: { customerId: SAMPLE_ID, month: '2026-10' } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const now = d.config.now();
      // The customer first, within the caller's scope: unknown (or another tenant's) is 404, not an empty export.
      if (!(await customerInScope(d.db, tenantScope(user), body.customerId))) throw notFound(USAGE_TEXT.customerNotFound);
      return exportResponse(
        c,
        exports,
        user,
        { kind: 'usageReport', customerId: body.customerId, month: body.month, now: now.toISOString() },
        USAGE_EXPORT_LABEL,
        USAGE_TEXT.exportFailed,
      );
    },
  );
}
