// Where an audit entry's record opens: the entity kinds the server writes, mapped to their routes.
import { getHref, type RouteId } from '../../paths';

const RECORD_ROUTES: Record<string, { route: RouteId; param: string }> = {
  customer: { route: 'customerAccount', param: 'customerId' },
  device: { route: 'device', param: 'deviceId' },
  person: { route: 'personEdit', param: 'userId' },
  alarmReport: { route: 'alarmReport', param: 'alarmId' },
};

/** The entity kinds the audit trail filter offers. */
export const AUDIT_ENTITIES = ['customer', 'device', 'person', 'alarmReport', 'feature', 'globalSetting', 'ssoDomain'] as const;

export function auditRecordHref(entity: string, entityId: string | null): { route: RouteId; href: string } | null {
  const r = RECORD_ROUTES[entity];
  if (!r || !entityId) return null;
  return { route: r.route, href: getHref(r.route, { [r.param]: entityId }) };
}
