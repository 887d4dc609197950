import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { MSG } from '../../../src/shared/messages';
import {
  adminFormErrors,
  administratorOf,
  CRM_REQUIRED,
  customerFormRules,
  formFieldOfServerKey,
  fromCrmAccount,
  toCustomerPayload,
  customerFormSchema,
  duplicatesQueryOf,
  EMPTY_CUSTOMER_FORM,
  lockedFields,
  portalReferenceOut,
  portalReferenceRequired,
  type CustomerFormValues,
} from '../../../src/app/features/customers/customer-form-schema';

const form = (patch: Partial<CustomerFormValues> = {}): CustomerFormValues => ({
  ...EMPTY_CUSTOMER_FORM,
  accountName: 'Acme Ltd',
  isMigratedAccount: 'no',
  accountStatus: '1',
  salesforceURN: 'URN-9',
  salesforceId: 'sf-9',
  ...patch,
});

describe('customer form rules (spec document 2 §5)', () => {
  it('requires the account name and the migrated answer', () => {
    const r = v.safeParse(customerFormSchema(), form({ accountName: '  ', isMigratedAccount: '' }));
    expect(r.success).toBe(false);
    const keys = (r.issues ?? []).map((i) => i.path?.[0]?.key);
    expect(keys).toContain('accountName');
    expect(keys).toContain('isMigratedAccount');
    expect((r.issues ?? []).find((i) => i.path?.[0]?.key === 'isMigratedAccount')?.message).toMatch(/^Please select /);
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
    // a required select says 'Please select …' (spec document 1 §5), not 'Please enter status'
    expect(rules(form({ accountStatus: '' })).accountStatus).toBe('Please select at least one option for status');
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

  it('a customer account needs its CRM account; an internal one does not', () => {
    const rules = customerFormRules({ editing: false });
    expect(rules(form({ salesforceURN: '', salesforceId: '' })).salesforceURN).toBe(CRM_REQUIRED);
    expect(rules(form({ accountType: 'internal', salesforceURN: '', salesforceId: '', accountStatus: '' }))).toEqual({});
  });

  it('builds the payload: internal accounts send no URN, managers, tier or status; phone as an international number', () => {
    const internal = toCustomerPayload(
      form({ accountType: 'internal', accountManager: 'M', successTier: '2', accountStatus: '1', phoneNumber: '07700 900123', country: 'GB-ID' }),
    );
    expect(internal).toMatchObject({
      name: 'Acme Ltd',
      salesforceUrn: null,
      salesforceId: null,
      ownerFullName: null,
      customerSuccessTier: null,
      customerStatus: null,
      phoneNumber: '+447700900123',
      isMigratedAccount: false,
      portalReferenceNumber: null,
    });
    expect(internal.addressDto.countryId).toBe('GB-ID');
    const linked = toCustomerPayload(form({ successTier: '3', accountManager: 'Ann', isMigratedAccount: 'yes', portalReferenceNumber: '0042' }));
    expect(linked).toMatchObject({
      salesforceUrn: 'URN-9',
      salesforceId: 'sf-9',
      customerSuccessTier: 3,
      customerStatus: 1,
      ownerFullName: 'Ann',
      portalReferenceNumber: '42',
    });
    expect(administratorOf(form())).toBeNull();
    expect(administratorOf(form({ firstName: ' Ann ', lastName: 'Lee', email: 'a@b.test' }))).toEqual({
      firstName: 'Ann',
      lastName: 'Lee',
      emailAddress: 'a@b.test',
    });
  });

  it('a picked CRM account fills the fields it holds', () => {
    const patch = fromCrmAccount({
      id: 'sf-1',
      name: 'Northwind',
      urn: 'URN-1',
      streetLine1: '1 High St',
      streetLine2: null,
      county: null,
      city: 'Leeds',
      postalCode: 'LS1 1AA',
      countryId: 'country-gb',
      phone: '441134960000',
      accountManagerFullName: 'Ann Manager',
      customerSuccessManagerFullName: null,
      customerSuccessTier: 2,
    });
    expect(patch).toMatchObject({
      salesforceId: 'sf-1',
      accountName: 'Northwind',
      salesforceURN: 'URN-1',
      city: 'Leeds',
      phoneNumber: '0113 496 0000',
      successTier: '2',
      successManager: '',
    });
  });

  it('add administrator: all required, a valid email', () => {
    expect(adminFormErrors({ firstName: '', lastName: '', email: '' })).toEqual({
      firstName: MSG.pleaseEnter('first name'),
      lastName: MSG.pleaseEnter('last name'),
      email: MSG.pleaseEnter('email'),
    });
    expect(adminFormErrors({ firstName: 'A', lastName: 'B', email: 'a@b' }).email).toBe('Please enter a valid email');
    expect(adminFormErrors({ firstName: 'A', lastName: 'B', email: 'a@b.test' })).toEqual({});
  });

  it('maps server field keys to form fields', () => {
    expect(formFieldOfServerKey('customerAccount.portalReferenceNumber')).toBe('portalReferenceNumber');
    expect(formFieldOfServerKey('administrator.emailAddress')).toBe('email');
    expect(formFieldOfServerKey('unknown')).toBeNull();
  });

  it('phone number and post code are read in the account country (GB by default) and refused with the message', () => {
    const rules = customerFormRules({ editing: false });
    expect(rules(form({ phoneNumber: '07700 900123', postCode: 'SW1A 1AA' }))).toEqual({});
    expect(rules(form({ phoneNumber: '0770', postCode: 'ZZ99 9ZZZZ' }))).toEqual({
      phoneNumber: MSG.validPhoneExample('07400 123456'),
      postCode: 'Please enter a valid post code, example: SW1A 1AA',
    });
    expect(toCustomerPayload(form({ phoneNumber: '447700900123' })).phoneNumber).toBe('+447700900123');
    expect(toCustomerPayload(form({ phoneNumber: '' })).phoneNumber).toBeNull();
    expect(toCustomerPayload(form({ postCode: 'sw1a1aa' })).addressDto.postCode).toBe('SW1A 1AA');
  });

  it('internal accounts lock URN, managers, tier and status; a CRM link locks what the CRM filled', () => {
    expect([...lockedFields({ accountType: 'internal', salesforceId: '' })].sort()).toEqual(
      ['accountManager', 'accountStatus', 'salesforceURN', 'successManager', 'successTier'].sort(),
    );
    const linked = lockedFields({ accountType: 'customer', salesforceId: 'sf-1' });
    for (const f of ['salesforceURN', 'addressLine1', 'city', 'postCode', 'country', 'accountManager', 'successManager'] as const)
      expect(linked.has(f)).toBe(true);
    expect(linked.has('accountName')).toBe(false);
    expect(linked.has('accountStatus')).toBe(false);
    expect(lockedFields({ accountType: 'customer', salesforceId: '' }).has('city')).toBe(false);
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
