// Pure helpers of the customer screens: the filter bar's values → the get-list body, the export
// file name, and the customer details → the form's values. Free of React (unit-tested).
import { format } from 'date-fns';
import type { FilterValues } from '../../ui/filter-bar';
import type { SortState } from '../../ui/data-table/types';
import type { CustomerDetails, CustomerListFilter } from '../../api/customers';
import { CUSTOMER_ORDER_BY, type CustomerOrderBy } from '../../../shared/schemas/customers';
import { EMPTY_CUSTOMER_FORM, type CustomerFormValues } from './customer-form-schema';
import { phoneForInput } from '../../../shared/phone';

/** Spec §9: the customer list sorts by Reference by default, ascending. */
export const DEFAULT_CUSTOMER_SORT: SortState = { key: 'Reference', desc: false };

const nums = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isFinite(n)) : []);

export function toCustomerListFilter(values: FilterValues, page: number, pageSize: number, sort: SortState): CustomerListFilter {
  const orderBy: CustomerOrderBy = (CUSTOMER_ORDER_BY as readonly string[]).includes(sort.key) ? (sort.key as CustomerOrderBy) : 'Reference';
  const out: CustomerListFilter = { page, pageSize, orderBy, desc: sort.desc };
  const search = typeof values.search === 'string' ? values.search.trim() : '';
  if (search) out.searchValue = search;
  const tiers = nums(values.tiers);
  if (tiers.length) out.tierIds = tiers;
  const statuses = nums(values.statuses);
  if (statuses.length) out.statusIds = statuses;
  if (values.migratedOnly === true) out.migratedOnly = true;
  return out;
}

export const exportFileName = (label: string, now = new Date()) => `${label}_${format(now, 'yyyy-MM-dd_HH-mm-ss')}.xlsx`;

export const dash = (s: string | null | undefined) => (s && s.trim() ? s : '-');

/** The stored customer → the edit form's values (an account with a CRM URN is a customer account). */
export function formValuesOf(c: CustomerDetails): CustomerFormValues {
  return {
    ...EMPTY_CUSTOMER_FORM,
    accountType: c.SalesforceUrn ? 'customer' : 'internal',
    accountName: c.Name,
    salesforceURN: c.SalesforceUrn ?? '',
    salesforceId: c.SalesforceId ?? '',
    addressLine1: c.Address.AddressLine1 ?? '',
    addressLine2: c.Address.AddressLine2 ?? '',
    county: c.Address.County ?? '',
    city: c.Address.City ?? '',
    postCode: c.Address.PostCode ?? '',
    country: c.Address.CountryId ?? '',
    phoneNumber: phoneForInput(c.PhoneNumber, c.Address.CountryId),
    accountManager: c.AccountManagerFullName ?? '',
    successManager: c.CustomerSuccessManagerFullName ?? '',
    successTier: c.Tier ? String(c.Tier.Value) : '',
    isMigratedAccount: c.IsMigratedAccount ? 'yes' : 'no',
    accountStatus: c.Status ? String(c.Status.Value) : '',
    portalReferenceNumber: c.PortalId ?? '',
  };
}
