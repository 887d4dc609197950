import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { MSG } from '../../../src/shared/messages';
import {
  customerFormRules,
  customerFormSchema,
  duplicatesQueryOf,
  EMPTY_CUSTOMER_FORM,
  lockedFields,
  portalReferenceOut,
  portalReferenceRequired,
  withPlus,
  type CustomerFormValues,
} from '../../../src/app/features/customers/customer-form-schema';

const form = (patch: Partial<CustomerFormValues> = {}): CustomerFormValues => ({
  ...EMPTY_CUSTOMER_FORM,
  accountName: 'Acme Ltd',
  isMigratedAccount: 'no',
  accountStatus: '1',
  ...patch,
});

describe('customer form rules (spec document 2 §5)', () => {
  it('requires the account name and the migrated answer', () => {
    const r = v.safeParse(customerFormSchema(), form({ accountName: '  ', isMigratedAccount: '' }));
    expect(r.success).toBe(false);
    const keys = (r.issues ?? []).map((i) => i.path?.[0]?.key);
    expect(keys).toContain('accountName');
    expect(keys).toContain('isMigratedAccount');
    expect(v.safeParse(customerFormSchema(), form()).success).toBe(true);
  });

  it('portal reference: required when migrated on create, numeric, absent for non-migrated accounts', () => {
    const create = customerFormRules({ editing: false });
    expect(create(form({ isMigratedAccount: 'yes' })).portalReferenceNumber).toBe(MSG.pleaseEnter('portal reference'));
    expect(create(form({ isMigratedAccount: 'yes', portalReferenceNumber: '12a' })).portalReferenceNumber).toBe('Portal reference should be a number');
    expect(create(form({ isMigratedAccount: 'yes', portalReferenceNumber: '1234' })).portalReferenceNumber).toBeUndefined();
    // not migrated: the field does not exist, whatever it holds
    expect(create(form({ isMigratedAccount: 'no', portalReferenceNumber: 'abc' })).portalReferenceNumber).toBeUndefined();
    expect(portalReferenceOut(form({ isMigratedAccount: 'no', portalReferenceNumber: '55' }))).toBeNull();
    expect(portalReferenceOut(form({ isMigratedAccount: 'yes', portalReferenceNumber: ' 55 ' }))).toBe(55);
  });

  it('portal reference on edit: required only while the stored account is not migrated', () => {
    expect(portalReferenceRequired({ isMigratedAccount: 'yes' }, { editing: true, wasMigrated: false })).toBe(true);
    expect(portalReferenceRequired({ isMigratedAccount: 'yes' }, { editing: true, wasMigrated: true })).toBe(false);
    const edit = customerFormRules({ editing: true, wasMigrated: true });
    expect(edit(form({ isMigratedAccount: 'yes' })).portalReferenceNumber).toBeUndefined();
    expect(edit(form({ isMigratedAccount: 'yes', portalReferenceNumber: 'x1' })).portalReferenceNumber).toBe(MSG.portalRefNumber);
  });

  it('status is required for customer accounts only', () => {
    const rules = customerFormRules({ editing: false });
    expect(rules(form({ accountStatus: '' })).accountStatus).toBeTruthy();
    expect(rules(form({ accountType: 'internal', accountStatus: '' })).accountStatus).toBeUndefined();
  });

  it('the first administrator is all or nothing with a valid email', () => {
    const rules = customerFormRules({ editing: false });
    expect(rules(form())).toEqual({});
    const partial = rules(form({ firstName: 'Ann' }));
    expect(partial.lastName).toBeTruthy();
    expect(partial.email).toBeTruthy();
    expect(rules(form({ firstName: 'Ann', lastName: 'Lee', email: 'not-an-email' })).email).toBe('Please enter a valid email');
    expect(rules(form({ firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.test' }))).toEqual({});
    // editing: no administrator part
    expect(customerFormRules({ editing: true })(form({ firstName: 'Ann' }))).toEqual({});
  });

  it('a leading + is added to the phone number', () => {
    expect(withPlus('447700900123')).toBe('+447700900123');
    expect(withPlus(' +447700900123 ')).toBe('+447700900123');
    expect(withPlus('  ')).toBe('');
  });

  it('internal accounts lock URN, managers, tier and status; a CRM link locks what the CRM filled', () => {
    expect([...lockedFields({ accountType: 'internal', salesforceId: '' })].sort()).toEqual(
      ['accountManager', 'accountStatus', 'salesforceURN', 'successManager', 'successTier'].sort(),
    );
    const linked = lockedFields({ accountType: 'customer', salesforceId: 'sf-1' });
    expect(linked.has('accountName')).toBe(true);
    expect(linked.has('accountStatus')).toBe(false);
    expect(lockedFields({ accountType: 'customer', salesforceId: '' }).has('accountName')).toBe(false);
  });

  it('the duplicates check asks by name, portal reference and URN', () => {
    expect(duplicatesQueryOf(form({ accountName: ' Acme ', isMigratedAccount: 'yes', portalReferenceNumber: '77', salesforceURN: 'URN-1' }))).toEqual({
      name: 'Acme',
      portalReferenceNumber: '77',
      salesforceUrn: 'URN-1',
    });
    expect(duplicatesQueryOf(form({ accountType: 'internal', salesforceURN: 'URN-1' })).salesforceUrn).toBeUndefined();
  });
});
