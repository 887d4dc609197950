// Customer-area strings. Texts the spec quotes that the shared catalogue (MSG) does not hold yet
// are kept here, word for word, with the labels the spec does not quote.
import { formatCount } from '../../../shared/numbers';

export const CUSTOMER_UI_TEXT = {
  // spec document 2 §5 / §4 (quoted)
  duplicatesTitle: 'Account already exists?',
  createDuplicate: 'Create duplicate account',
  exportConfirm: (n: number) => `Are you sure you want to export data for ${formatCount(n)} customers?`,
  exportDevicesConfirm: (n: number) => `Are you sure you want to export data for ${formatCount(n)} devices?`,
  noOrderNumber: 'Are you sure you want to continue without an order number?',
  quotaExceeded: (types: string) => `Allocation of ${types} exceeds subscription are you sure?`,
  noOrderAndQuota: (types: string) => `Order number is missing and allocation of ${types} exceeds subscription. Are you sure?`,
  overAllocatedTitle: 'Change Device Configuration',
  subscriptionsChangedTitle: 'Subscriptions changed',
  subscriptionsReload: 'Reload',
  overAllocated: (names: string) =>
    `There are more ${names} allocated in this customers account than the subscription allows for. Are you sure you want to save?`,
  disableSosTitle: 'IMPORTANT: This feature will DISABLE the SOS button',
  disableSosMessage: 'Do not enable this unless instructed by senior management. Users will be unable to activate an alarm while the SOS button is disabled.',
  disableSosConfirm: 'Disable SOS',
  notFound: 'Not found',
  /** Spec §4 "Settings toggles": the pause confirmation's warning. */
  pauseWarning: (n: number) => `All ${formatCount(n)} paused emails will be sent immediately. Some customers have asked not to receive emails. Are you sure?`,
  // labels (not quoted by the spec)
  reloadHint: 'Reload the customer to see the latest version, then make your change again.',
  reload: 'Reload',
  accountTypeCustomer: 'Customer (linked to a CRM account)',
  accountTypeInternal: 'Internal (testing)',
  crmSearch: 'Search CRM accounts',
  crmSearchPlaceholder: 'Type an account name or URN',
  crmNoResults: 'No CRM accounts found.',
  unlinkCrm: 'Unlink CRM account',
  firstAdministrator: 'First administrator',
  pausedBacklog: (n: number) => `${formatCount(n)} e-mail${n === 1 ? '' : 's'} waiting to be sent.`,
} as const;
