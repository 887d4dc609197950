// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/shared/messages';
import { ACTION_MSG } from '../../../src/app/features/bulk-update/bulk-rules';
import { CHANGE_TEXTS } from '../../../src/app/features/bulk-manage/change-config-form';
import { CONFIG_TEXTS } from '../../../src/app/features/assets/device-config';
import { CUSTOMER_UI_TEXT } from '../../../src/app/features/customers/text';
import { BULK_MSG } from '../../../src/app/features/bulk-update/bulk-service';
import { orderNumberUpdated } from '../../../src/app/features/bulk-update/bulk-actions';

describe('counts in messages are written with thousands separators', () => {
  it.each([
    ['Bulk Update count', MSG.bulkUpdateCount(2002)],
    ['scan offer title', MSG.scanOfferTitle(Array.from({ length: 2002 }, (_, i) => `S${i}`))],
    ['scan offer add', MSG.scanOfferAdd(2002)],
    ['scan offer added', MSG.scanOfferAdded(2002)],
    ['order number for N', MSG.orderNumberForN(2002)],
    ['status change completed', MSG.statusChangeCompleted(2002)],
    ['unassign warning', ACTION_MSG.unassignWarning(2002)],
    ['remove warning', ACTION_MSG.removeWarning(2002)],
    ['type warning', ACTION_MSG.typeWarning(2002, 'T4')],
    ['configuration confirm', CHANGE_TEXTS.confirm(2002)],
    ['configuration queued', CONFIG_TEXTS.queued(2002)],
    ['pause warning', CUSTOMER_UI_TEXT.pauseWarning(2002)],
    ['paused backlog', CUSTOMER_UI_TEXT.pausedBacklog(2002)],
    ['scans waiting', BULK_MSG.waiting(2002)],
    ['order number updated', orderNumberUpdated(2002)],
  ])('%s', (_, text) => {
    expect(text).toContain('2,002');
    expect(text).not.toMatch(/\b2002\b/);
  });
});
