// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  toListFilter,
  searchTooShort,
  statusLabel,
  formatDate,
  formatDateTime,
  EMPTY_ASSET_FILTERS,
  DEFAULT_DEVICE_SORT,
} from '../../../src/app/features/assets/asset-format';
import { changedDetails, deviceFormSchema, deviceFormValues, isSimExempt } from '../../../src/app/features/assets/device-form';
import { importErrorMessage, isCsvFile } from '../../../src/app/features/assets/import';
import { assetColumns } from '../../../src/app/features/assets/asset-columns';
import { DEVICE_ORDER_BY, DEVICE_TEXT, SIM_EXEMPT_TYPES, deviceListBody } from '../../../src/shared/schemas/devices';
import { MSG } from '../../../src/shared/messages';
import * as v from 'valibot';
import { makeDevice } from './fixtures';

describe('asset list filter body', () => {
  it('defaults: page 1, Serial Number ascending, last config 0 left out — and the contract accepts it', () => {
    const body = toListFilter(EMPTY_ASSET_FILTERS, 1, 10, DEFAULT_DEVICE_SORT);
    expect(body).toEqual({ page: 1, pageSize: 10, orderBy: 'SerialNumber', desc: false });
    expect(v.safeParse(deviceListBody, body).success).toBe(true);
  });

  it('maps every filter of the bar to the contract names', () => {
    const body = toListFilter({ search: '  35811 ', types: ['750', '621'], statuses: ['1'], orderNumber: ' SO-1 ', assigned: 'no', lastConfig: '2' }, 3, 25, {
      key: 'LastConfig',
      desc: true,
    });
    expect(body).toEqual({
      page: 3,
      pageSize: 25,
      orderBy: 'LastConfig',
      desc: true,
      searchValue: '35811',
      deviceTypeIds: [750, 621],
      statusIds: [1],
      orderNumber: 'SO-1',
      assigned: false,
      lastConfig: 2,
    });
    expect(v.safeParse(deviceListBody, body).success).toBe(true);
    expect(toListFilter({ assigned: 'yes' }, 1, 10, DEFAULT_DEVICE_SORT).assigned).toBe(true);
  });

  it('search shorter than 5 characters does not run', () => {
    expect(searchTooShort('')).toBe(false);
    expect(searchTooShort('1234')).toBe(true);
    expect(searchTooShort('12345')).toBe(false);
  });

  it('every sortable column sorts by a key the server knows', () => {
    const keys = assetColumns()
      .map((c) => c.sortKey)
      .filter(Boolean);
    expect(assetColumns().map((c) => c.header)).toEqual([
      'Type',
      'Serial Number',
      'IMEI',
      'SIM Serial',
      'Phone number',
      'Order Number',
      'Last Config',
      'Status',
      'Assigned',
    ]);
    for (const k of keys) expect(DEVICE_ORDER_BY).toContain(k);
  });
});

describe('display', () => {
  it('status names read as words; dates are en-GB 24-hour; empty is a dash', () => {
    expect(statusLabel('AwaitingReturn_Replacement')).toBe('Awaiting Return (Replacement)');
    expect(statusLabel('NonReturnedDevice_FaultyReplacement')).toBe('Not Returned (Faulty Replacement)');
    expect(statusLabel('New')).toBe('New');
    expect(formatDateTime('2026-07-03T18:38:00Z')).toBe('03/07/2026 19:38');
    expect(formatDate('2025-06-24T23:30:00Z')).toBe('25/06/2025');
    expect(formatDateTime(null)).toBe('-');
  });
});

describe('device basic form', () => {
  const nonExempt = makeDevice();
  const exemptType = SIM_EXEMPT_TYPES[0]!;

  it('supplier is required; SIM type, SIM serial and phone are required unless the type is exempt', () => {
    const empty = { supplier: ' ', simTypeId: '', simSerial: '', phoneNumber: '', imsi: '' };
    const issues = (type: number) => {
      const r = v.safeParse(deviceFormSchema(type), empty);
      return r.success ? {} : Object.fromEntries(r.issues.map((i) => [i.path?.[0]?.key, i.message]));
    };
    expect(isSimExempt(nonExempt.type.value)).toBe(false);
    expect(issues(nonExempt.type.value)).toEqual({
      supplier: DEVICE_TEXT.supplierRequired,
      simTypeId: DEVICE_TEXT.simTypeRequired,
      simSerial: DEVICE_TEXT.simSerialRequired,
      phoneNumber: DEVICE_TEXT.phoneRequired,
    });
    expect(issues(exemptType)).toEqual({ supplier: DEVICE_TEXT.supplierRequired });
    expect(v.safeParse(deviceFormSchema(nonExempt.type.value), deviceFormValues(nonExempt)).success).toBe(true);
  });

  it('only changed fields are sent; a cleared SIM type is null', () => {
    const before = deviceFormValues(nonExempt);
    expect(changedDetails(before, { ...before })).toEqual({});
    expect(changedDetails(before, { ...before, supplier: ' Acme ', imsi: '' })).toEqual({ supplier: 'Acme', imsi: '' });
    expect(changedDetails(before, { ...before, simTypeId: '3' })).toEqual({ simTypeId: 3 });
    expect(changedDetails(before, { ...before, simTypeId: '' })).toEqual({ simTypeId: null });
  });
});

describe('import', () => {
  it('accepts CSV files only', () => {
    expect(isCsvFile({ name: 'devices.csv', type: 'text/csv' })).toBe(true);
    expect(isCsvFile({ name: 'devices.csv', type: 'application/vnd.ms-excel' })).toBe(true);
    expect(isCsvFile({ name: 'devices.CSV', type: '' })).toBe(true);
    expect(isCsvFile({ name: 'devices.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })).toBe(false);
    expect(isCsvFile({ name: 'devices.txt', type: 'text/plain' })).toBe(false);
  });

  it('shows the server message, else the code, else the default; 403 is the permission message', () => {
    const err = (status: number, Content: Record<string, unknown>) => Object.assign(new Error('x'), { status, data: { Content } });
    expect(importErrorMessage(err(400, { Message: MSG.csvMissingColumn('SerialNumber'), Code: 'import_file_invalid' }))).toBe(
      MSG.csvMissingColumn('SerialNumber'),
    );
    expect(importErrorMessage(err(400, { Code: 'import_file_invalid' }))).toBe(MSG.importInvalid('import_file_invalid'));
    expect(importErrorMessage(err(403, { Message: 'nope' }))).toBe(MSG.forbidden);
    expect(importErrorMessage(new Error('network'))).toBe(MSG.default);
  });
});
