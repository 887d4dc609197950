import { describe, expect, it } from 'vitest';
import { resolveHref } from '../../../src/app/workspace/url';

describe('URL ↔ tab', () => {
  it('maps spec routes to tab targets with params and the static title', () => {
    expect(resolveHref('/persons/edit/7f1c')).toEqual({ href: '/persons/edit/7f1c', route: 'personEdit', params: { userId: '7f1c' }, title: 'Edit user' });
    expect(resolveHref('/persons/add')).toMatchObject({ route: 'personAdd', params: {} });
    expect(resolveHref('/asset-management/device-bulk-update')).toMatchObject({ route: 'bulkUpdate' });
    expect(resolveHref('/asset-management/SN123')).toMatchObject({ route: 'device', params: { deviceId: 'SN123' } });
    expect(resolveHref('/customers/42/subscriptions')).toMatchObject({ route: 'customerSubscriptions', params: { customerId: '42' } });
    expect(resolveHref('/alarm-reports/99')).toMatchObject({ route: 'alarmReport', params: { alarmId: '99' }, title: 'Closed Alarm Report' });
  });

  it('canonicalises: trailing slash and hash go; the query (a list state) stays in the href', () => {
    expect(resolveHref('/persons/')!.href).toBe('/persons');
    expect(resolveHref('/persons?x=1#y')!.href).toBe('/persons?x=1');
    expect(resolveHref('/persons?#y')!.href).toBe('/persons');
    expect(resolveHref('/persons/edit/a%20b')).toMatchObject({ href: '/persons/edit/a%20b', params: { userId: 'a b' } });
  });

  it('signed-out pages, the root and unknown paths are not tabs', () => {
    for (const p of ['/', '/login', '/forgot-password', '/nope', '/persons/edit', '']) expect(resolveHref(p), p).toBeNull();
  });
});
