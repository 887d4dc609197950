// The one customer form (create and edit; spec document 2 §3 "Customer form fields", §5): its
// values, its valibot rules and the locks that follow the account type and a linked CRM account.
// Plain functions so tests/unit/customers/form-rules.test.ts can hold every rule.
import * as v from 'valibot';
import { MSG } from '../../../shared/messages';
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX } from '../../../shared/schemas/persons';
import { CUSTOMER_TEXT, type CrmAccount } from '../../../shared/schemas/customers';
import { normalisePhone, normalisePostCode, phoneError, phoneForInput, postCodeError } from '../../../shared/phone';

/** Form only (spec §3 "Account type"): a customer linked to a CRM account, or an internal (testing) one. */
export type AccountType = 'customer' | 'internal';
export type YesNo = '' | 'yes' | 'no';

export type CustomerFormValues = {
  accountType: AccountType;
  accountName: string;
  salesforceURN: string;
  /** The linked CRM account's id (set by the CRM search, not typed). */
  salesforceId: string;
  addressLine1: string;
  addressLine2: string;
  county: string;
  city: string;
  postCode: string;
  country: string;
  phoneNumber: string;
  accountManager: string;
  successManager: string;
  /** Tier value as text ('' = none). */
  successTier: string;
  isMigratedAccount: YesNo;
  /** Status value as text ('' = none). */
  accountStatus: string;
  portalReferenceNumber: string;
  // first administrator (create only)
  firstName: string;
  lastName: string;
  email: string;
};

export const EMPTY_CUSTOMER_FORM: CustomerFormValues = {
  accountType: 'customer',
  accountName: '',
  salesforceURN: '',
  salesforceId: '',
  addressLine1: '',
  addressLine2: '',
  county: '',
  city: '',
  postCode: '',
  country: '',
  phoneNumber: '',
  accountManager: '',
  successManager: '',
  successTier: '',
  isMigratedAccount: '',
  accountStatus: '',
  portalReferenceNumber: '',
  firstName: '',
  lastName: '',
  email: '',
};

export type FormContext = {
  editing: boolean;
  /** Edit: whether the stored account is already migrated. */
  wasMigrated?: boolean;
};

/**
 * The phone number as sent: international (E.164) when it is a number of the account's country
 * or one typed with its country code (src/shared/phone.ts); as typed otherwise, for the server to refuse.
 */
export function phoneOut(values: Pick<CustomerFormValues, 'phoneNumber' | 'country'>): string | null {
  const t = values.phoneNumber.trim();
  if (!t) return null;
  return normalisePhone(t, values.country) ?? t;
}

/** Spec §5: the portal reference only exists for migrated accounts; required on create, and on edit while the stored account is not migrated yet. */
export function portalReferenceRequired(values: Pick<CustomerFormValues, 'isMigratedAccount'>, ctx: FormContext): boolean {
  if (values.isMigratedAccount !== 'yes') return false;
  return !ctx.editing || !ctx.wasMigrated;
}

/** Whether the portal reference field shows at all (migrated accounts only). */
export const showsPortalReference = (values: Pick<CustomerFormValues, 'isMigratedAccount'>) => values.isMigratedAccount === 'yes';

export type LockedField = keyof CustomerFormValues;

/**
 * Fields the user may not type in: internal accounts lock URN, managers, tier and status (spec);
 * a linked CRM account fills and locks what the CRM holds.
 */
export function lockedFields(values: Pick<CustomerFormValues, 'accountType' | 'salesforceId'>): Set<LockedField> {
  if (values.accountType === 'internal') return new Set<LockedField>(['salesforceURN', 'accountManager', 'successManager', 'successTier', 'accountStatus']);
  // Spec §4 "Customer form": a linked CRM account locks the address, CRM and manager fields.
  if (values.salesforceId)
    return new Set<LockedField>(['salesforceURN', 'addressLine1', 'addressLine2', 'county', 'city', 'postCode', 'country', 'accountManager', 'successManager']);
  return new Set<LockedField>(['salesforceURN']);
}

const optionalText = (max: number) => v.pipe(v.string(), v.maxLength(max, `At most ${max} characters.`));

/** The field rules; `extra` rules that depend on several fields come from customerFormRules. */
export function customerFormSchema() {
  return v.object({
    accountType: v.picklist(['customer', 'internal']),
    accountName: v.pipe(v.string(), v.trim(), v.nonEmpty(MSG.pleaseEnter('account name')), v.maxLength(200, 'At most 200 characters.')),
    salesforceURN: optionalText(100),
    salesforceId: optionalText(100),
    addressLine1: optionalText(200),
    addressLine2: optionalText(200),
    county: optionalText(100),
    city: optionalText(100),
    postCode: optionalText(20),
    country: optionalText(100),
    phoneNumber: optionalText(32),
    accountManager: optionalText(200),
    successManager: optionalText(200),
    successTier: v.string(),
    isMigratedAccount: v.picklist(['yes', 'no'], CUSTOMER_TEXT.migratedRequired),
    accountStatus: v.string(),
    portalReferenceNumber: v.string(),
    firstName: optionalText(NAME_MAX),
    lastName: optionalText(NAME_MAX),
    email: optionalText(EMAIL_MAX),
  });
}

/** The rules that read several fields or the form's context (spec §5). */
export function customerFormRules(ctx: FormContext) {
  return (values: CustomerFormValues): Partial<Record<keyof CustomerFormValues, string>> => {
    const errors: Partial<Record<keyof CustomerFormValues, string>> = {};
    // Phone number and post code are read in the account's country (GB when none is chosen).
    const phone = phoneError(values.phoneNumber, values.country);
    if (phone) errors.phoneNumber = phone;
    const postCode = postCodeError(values.postCode, values.country);
    if (postCode) errors.postCode = postCode;
    const portal = values.portalReferenceNumber.trim();
    if (showsPortalReference(values)) {
      if (!portal && portalReferenceRequired(values, ctx)) errors.portalReferenceNumber = MSG.pleaseEnter('portal reference');
      else if (portal && !/^\d+$/.test(portal)) errors.portalReferenceNumber = MSG.portalRefNumber;
    }
    // A customer account is the CRM's account: its URN comes from the CRM search.
    if (values.accountType === 'customer' && !values.salesforceURN.trim()) errors.salesforceURN = CRM_REQUIRED;
    // Spec §5: status is required for customer-type accounts.
    if (values.accountType === 'customer' && !values.accountStatus) errors.accountStatus = CUSTOMER_TEXT.statusRequired;
    // The first administrator (create only): all or nothing, and a real address.
    if (!ctx.editing) {
      const admin = [values.firstName, values.lastName, values.email].map((s) => s.trim());
      if (admin.some(Boolean)) {
        if (!admin[0]) errors.firstName = MSG.pleaseEnter('first name');
        if (!admin[1]) errors.lastName = MSG.pleaseEnter('last name');
        if (!admin[2]) errors.email = MSG.pleaseEnter('email');
        else if (!EMAIL_PATTERN.test(admin[2])) errors.email = MSG.enterValidEmail;
      }
    }
    return errors;
  };
}

export const CRM_REQUIRED = 'Please select the linked CRM account';

/** The portal reference as sent: a number, only for migrated accounts (spec §3 payload). */
export function portalReferenceOut(values: Pick<CustomerFormValues, 'isMigratedAccount' | 'portalReferenceNumber'>): number | null {
  const t = values.portalReferenceNumber.trim();
  return values.isMigratedAccount === 'yes' && /^\d+$/.test(t) ? Number(t) : null;
}

/** The duplicates check's query (spec §5: by name, portal reference, CRM URN). */
export function duplicatesQueryOf(values: CustomerFormValues) {
  const portal = portalReferenceOut(values);
  return {
    name: values.accountName.trim(),
    portalReferenceNumber: portal === null ? undefined : String(portal),
    salesforceUrn: values.accountType === 'customer' && values.salesforceURN.trim() ? values.salesforceURN.trim() : undefined,
  };
}

export type AdminFormValues = { firstName: string; lastName: string; email: string };

/** Add administrator (spec §5): all three required; the email must match the standard pattern. */
export function adminFormErrors(values: AdminFormValues): Partial<Record<keyof AdminFormValues, string>> {
  const errors: Partial<Record<keyof AdminFormValues, string>> = {};
  if (!values.firstName.trim()) errors.firstName = MSG.pleaseEnter('first name');
  if (!values.lastName.trim()) errors.lastName = MSG.pleaseEnter('last name');
  const email = values.email.trim();
  if (!email) errors.email = MSG.pleaseEnter('email');
  else if (!EMAIL_PATTERN.test(email)) errors.email = MSG.enterValidEmail;
  return errors;
}

/** The CRM account picked in the search → the form fields it fills (and locks). */
export function fromCrmAccount(a: Omit<CrmAccount, 'country'>): Partial<CustomerFormValues> {
  return {
    salesforceId: a.id,
    accountName: a.name,
    salesforceURN: a.urn ?? '',
    addressLine1: a.streetLine1 ?? '',
    addressLine2: a.streetLine2 ?? '',
    county: a.county ?? '',
    city: a.city ?? '',
    postCode: a.postalCode ?? '',
    country: a.countryId ?? '',
    phoneNumber: phoneForInput(a.phone, a.countryId),
    accountManager: a.accountManagerFullName ?? '',
    successManager: a.customerSuccessManagerFullName ?? '',
    successTier: a.customerSuccessTier === null ? '' : String(a.customerSuccessTier),
  };
}

const orNull = (s: string) => s.trim() || null;

/** The form → the create/update payload (spec §3). Internal accounts send no URN, managers, tier or status. */
export function toCustomerPayload(values: CustomerFormValues) {
  const customer = values.accountType === 'customer';
  const portal = portalReferenceOut(values);
  return {
    name: values.accountName.trim(),
    addressDto: {
      addressLine1: orNull(values.addressLine1),
      addressLine2: orNull(values.addressLine2),
      county: orNull(values.county),
      city: orNull(values.city),
      postCode: normalisePostCode(values.postCode, values.country),
      countryId: orNull(values.country),
    },
    isMigratedAccount: values.isMigratedAccount === 'yes',
    phoneNumber: phoneOut(values),
    customerStatus: customer && values.accountStatus ? Number(values.accountStatus) : null,
    portalReferenceNumber: portal === null ? null : String(portal),
    salesforceId: customer ? orNull(values.salesforceId) : null,
    salesforceUrn: customer ? orNull(values.salesforceURN) : null,
    ownerFullName: customer ? orNull(values.accountManager) : null,
    customerSuccessManagerFullName: customer ? orNull(values.successManager) : null,
    customerSuccessTier: customer && values.successTier ? Number(values.successTier) : null,
  };
}

/** The first administrator of a new account, when one was entered. */
export function administratorOf(values: CustomerFormValues) {
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  const emailAddress = values.email.trim();
  return firstName || lastName || emailAddress ? { firstName, lastName, emailAddress } : null;
}

/** Server field keys (Content.Errors) → form fields. */
export function formFieldOfServerKey(key: string): keyof CustomerFormValues | null {
  const k = key.replace(/^customerAccount\./, '');
  const map: Record<string, keyof CustomerFormValues> = {
    name: 'accountName',
    'addressDto.addressLine1': 'addressLine1',
    'addressDto.addressLine2': 'addressLine2',
    'addressDto.county': 'county',
    'addressDto.city': 'city',
    'addressDto.postCode': 'postCode',
    'addressDto.countryId': 'country',
    isMigratedAccount: 'isMigratedAccount',
    phoneNumber: 'phoneNumber',
    customerStatus: 'accountStatus',
    portalReferenceNumber: 'portalReferenceNumber',
    salesforceUrn: 'salesforceURN',
    ownerFullName: 'accountManager',
    customerSuccessManagerFullName: 'successManager',
    customerSuccessTier: 'successTier',
    'administrator.firstName': 'firstName',
    'administrator.lastName': 'lastName',
    'administrator.emailAddress': 'email',
  };
  return map[k] ?? null;
}
