// One phone rule (src/shared/phone.ts) and every place that takes or shows a phone number: each
// form stores '07700 900123' as '+447700900123', puts it back as '07700 900123', refuses an
// invalid number with the spec's message; each place that shows a number reads '+44 7700 900123'.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { MSG } from '../../../src/shared/messages';
import { formatPhone, normalisePhone, normalisePostCode, phoneError, phoneForInput, postCodeError } from '../../../src/shared/phone';
import { customerFormRules, EMPTY_CUSTOMER_FORM, fromCrmAccount, toCustomerPayload } from '../../../src/app/features/customers/customer-form-schema';
import { formValuesOf } from '../../../src/app/features/customers/customer-format';
import { changedDetails, deviceFormSchema, deviceFormValues } from '../../../src/app/features/assets/device-form';
import { buildChangePayload, changeConfigErrors, EMPTY_CHANGE } from '../../../src/app/features/bulk-manage/change-config-form';
import { configurationChangeBody } from '../../../src/shared/schemas/live';
import { formatPhone as reportPhone, headerName } from '../../../src/app/features/alarm-reports/alarm-format';
import { customerPayload } from '../../../src/shared/schemas/customers';
import type { CustomerDetails } from '../../../src/app/api/customers';
import type { DeviceDto } from '../../../src/app/api/devices';
import { resolvePhone } from '../../../src/shared/schemas/persons';
import { phoneError as profilePhoneError, displayNumber } from '../../../src/app/features/profile/phone';

const GB_MESSAGE = MSG.validPhoneExample('07400 123456');

describe('the phone rule', () => {
  it('national numbers keep their meaning; a number with its country code gets its +; never +0', () => {
    expect(normalisePhone('07700 900123')).toBe('+447700900123');
    expect(normalisePhone('447700900123')).toBe('+447700900123');
    expect(normalisePhone('+44 7700 900123')).toBe('+447700900123');
    expect(normalisePhone('0044 7700 900123')).toBe('+447700900123');
    expect(normalisePhone('020 7946 0018')).toBe('+442079460018');
    expect(normalisePhone('+33 6 12 34 56 78')).toBe('+33612345678');
    expect(normalisePhone('06 12 34 56 78', 'country-fr')).toBe('+33612345678');
    for (const bad of ['+07700900123', '0770', '12345', 'abc', '07700 900123 1234', '+0']) {
      expect(normalisePhone(bad)).toBeNull();
      expect(phoneError(bad)).toBe(GB_MESSAGE);
    }
    expect(phoneError('')).toBeUndefined();
  });
  it('shown as an international number; put back into a field in the account country’s national format', () => {
    expect(formatPhone('+447700900123')).toBe('+44 7700 900123');
    expect(formatPhone('7700900123', '44')).toBe('+44 7700 900123');
    expect(formatPhone('07700900123', '+44')).toBe('+44 7700 900123');
    expect(formatPhone(null)).toBe('-');
    expect(phoneForInput('+447700900123')).toBe('07700 900123');
    expect(phoneForInput('+33612345678')).toBe('+33 6 12 34 56 78');
  });
  it('post codes: the UK format for GB accounts, a plain shape elsewhere', () => {
    expect(postCodeError('ZZ99 9ZZZZ')).toBe('Please enter a valid post code, example: SW1A 1AA');
    for (const ok of ['SW1A 1AA', 'sw1a1aa', 'M1 1AE', 'B33 8TH', 'EC1A 1BB', 'GIR 0AA', '']) expect(postCodeError(ok)).toBeUndefined();
    expect(normalisePostCode('sw1a1aa')).toBe('SW1A 1AA');
    expect(postCodeError('75001', 'country-fr')).toBeUndefined();
    expect(postCodeError('75001')).toBeDefined();
  });
});

const customerDetails = (PhoneNumber: string | null) =>
  ({
    Name: 'Acme',
    SalesforceUrn: null,
    SalesforceId: null,
    PhoneNumber,
    PortalId: null,
    Tier: null,
    Status: null,
    IsMigratedAccount: false,
    AccountManagerFullName: null,
    CustomerSuccessManagerFullName: null,
    Address: { AddressLine1: null, AddressLine2: null, City: null, County: null, PostCode: null, CountryId: 'country-gb', Country: null },
  }) as unknown as CustomerDetails;

const device = { supplier: 'S', simTypeId: 1, simSerial: '894', phoneNumber: '+447700900123', imsi: null } as unknown as DeviceDto;

describe('every form with a phone field', () => {
  it('customer form (create, edit, a CRM account picked): stores +447700900123, shows 07700 900123, refuses with the message', () => {
    const values = {
      ...EMPTY_CUSTOMER_FORM,
      accountType: 'internal' as const,
      accountName: 'A',
      isMigratedAccount: 'no' as const,
      phoneNumber: '07700 900123',
    };
    expect(toCustomerPayload(values).phoneNumber).toBe('+447700900123');
    expect(formValuesOf(customerDetails('+447700900123')).phoneNumber).toBe('07700 900123');
    expect(
      fromCrmAccount({
        id: 'x',
        name: 'n',
        urn: null,
        streetLine1: null,
        streetLine2: null,
        county: null,
        city: null,
        postalCode: null,
        countryId: null,
        phone: '447700900123',
        accountManagerFullName: null,
        customerSuccessManagerFullName: null,
        customerSuccessTier: null,
      }).phoneNumber,
    ).toBe('07700 900123');
    expect(customerFormRules({ editing: true })({ ...values, phoneNumber: '0770' }).phoneNumber).toBe(GB_MESSAGE);
    // the server's payload schema keeps the text; the routes check and normalise it (integration tests)
    expect(v.safeParse(customerPayload, { name: 'A', isMigratedAccount: false, phoneNumber: '07700 900123' }).success).toBe(true);
  });
  it('device basic form: stores +447700900123, shows 07700 900123, refuses with the message', () => {
    const before = deviceFormValues(device);
    expect(before.phoneNumber).toBe('07700 900123');
    expect(changedDetails(before, { ...before, phoneNumber: '07700 900124' }).phoneNumber).toBe('+447700900124');
    const bad = v.safeParse(deviceFormSchema(620), { ...before, phoneNumber: '0770' });
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0]?.message).toBe(GB_MESSAGE);
  });
  it('device configuration call buttons (form and server schema): stores +447700900123, refuses with the message', () => {
    const ctx = { customCallType: 2, fall: null };
    const x = { ...EMPTY_CHANGE, call1Change: true, call1Button: '2', call1Number: '07700 900123' };
    expect(changeConfigErrors(x, ctx)).toEqual({});
    expect(buildChangePayload(x, ['S1'], ctx).custom1Number).toEqual({ phoneNumber: '+447700900123' });
    expect(changeConfigErrors({ ...x, call1Number: '0770' }, ctx).call1Number).toBe(GB_MESSAGE);
    const parsed = v.safeParse(configurationChangeBody, { serials: ['S1'], call1Button: 2, custom1Number: { phoneNumber: '07700 900123' } });
    expect(parsed.success && parsed.output.custom1Number).toEqual({ phoneNumber: '+447700900123' });
    const refused = v.safeParse(configurationChangeBody, { serials: ['S1'], call1Button: 2, custom1Number: { phoneNumber: '0770' } });
    expect(refused.issues?.[0]?.message).toBe(GB_MESSAGE);
  });
  it('own profile (country and number, as the spec sends them): 07700 900123 accepted and stored with its country', () => {
    expect(profilePhoneError('GB', '07700 900123')).toBeUndefined();
    expect(resolvePhone('GB', '07700 900123')).toEqual({ CountryCode: 'GB', Number: '7700900123' });
    expect(displayNumber('GB', '7700900123')).toBe('7700 900123');
    expect(profilePhoneError('GB', '0770')).toBe(GB_MESSAGE);
  });
});

describe('every place that shows a phone number', () => {
  it('alarm report contacts, header fallback and analysis read +44 …', () => {
    expect(reportPhone({ CountryCode: '44', Number: '7700900123' })).toBe('+44 7700 900123');
    expect(reportPhone({ CountryCode: '44', Number: '07700900123' })).toBe('+44 7700 900123');
    expect(headerName(null, '07700900123')).toBe('+44 7700 900123');
  });
});
