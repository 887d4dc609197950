// The one customer form (create and edit; spec document 2 §3 "Customer form fields", §5): its
// values, its valibot rules and the locks that follow the account type and a linked CRM account.
// Plain functions so tests/unit/customers/form-rules.test.ts can hold every rule.
import * as v from 'valibot';
import { MSG } from '../../../shared/messages';
import { EMAIL_MAX, EMAIL_PATTERN, NAME_MAX } from '../../../shared/schemas/persons';

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

/** Spec §5: a leading + is added to the phone number if missing. */
export function withPlus(phone: string): string {
  const t = phone.trim();
  if (!t) return '';
  return t.startsWith('+') ? t : `+${t}`;
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
 * Fields the user may not type in: internal accounts lock URN, managers, tier and status (spec
 * issue #10); a linked CRM account fills and locks what the CRM holds.
 */
export function lockedFields(values: Pick<CustomerFormValues, 'accountType' | 'salesforceId'>): Set<LockedField> {
  if (values.accountType === 'internal') return new Set<LockedField>(['salesforceURN', 'accountManager', 'successManager', 'successTier', 'accountStatus']);
  if (values.salesforceId)
    return new Set<LockedField>([
      'accountName',
      'salesforceURN',
      'addressLine1',
      'addressLine2',
      'county',
      'city',
      'postCode',
      'country',
      'phoneNumber',
      'accountManager',
      'successManager',
      'successTier',
    ]);
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
    phoneNumber: v.pipe(
      v.string(),
      v.trim(),
      v.check((s) => s === '' || /^\+?[\d\s()-]{4,20}$/.test(s), 'Please enter a valid phone number'),
    ),
    accountManager: optionalText(200),
    successManager: optionalText(200),
    successTier: v.string(),
    isMigratedAccount: v.picklist(['yes', 'no'], MSG.pleaseEnter('whether the account is migrated')),
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
    const portal = values.portalReferenceNumber.trim();
    if (showsPortalReference(values)) {
      if (!portal && portalReferenceRequired(values, ctx)) errors.portalReferenceNumber = MSG.pleaseEnter('portal reference');
      else if (portal && !/^\d+$/.test(portal)) errors.portalReferenceNumber = MSG.portalRefNumber;
    }
    // Spec §5: status is required for customer-type accounts.
    if (values.accountType === 'customer' && !values.accountStatus) errors.accountStatus = MSG.pleaseEnter('status');
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
