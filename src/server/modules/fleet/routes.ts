// Fleet health (ours; contract: src/shared/schemas/fleet.ts): the counts and customers of the
// Fleet Health page, and the thresholds — the provider's (Provider Settings) and a customer's
// override (the customer's Settings tab). Each threshold change records an audit entry with its
// values before and after in the same transaction. Queries: ./repo.ts.
import { deps, notFound, type Api } from '../../http/api.js';
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

export function fleetRoutes(api: Api, hub: Hub) {
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
}
