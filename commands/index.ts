// The registry: every command, listed explicitly (no import side effects, no global singleton).
// tests/unit/commands/registry.test.ts fails on duplicate ids, clashing keys and reserved keys.
import type { Command } from '../src/app/keyboard/define';
import paletteOpen from './palette-open';
import helpShortcuts from './help-shortcuts';
import navAssets from './nav-assets';
import navCustomers from './nav-customers';
import navUsers from './nav-users';
import navAlarmReports from './nav-alarm-reports';
import navBulkUpdate from './nav-bulk-update';
import navProfile from './nav-profile';
import navSettings from './nav-settings';
import navAudit from './nav-audit';
import navFleet from './nav-fleet';
import personAdd from './person-add';
import bulkAddSerial from './bulk-add-serial';
import bulkClear from './bulk-clear';
import deviceOpenBySerial from './device-open-by-serial';
import assetsExport from './assets-export';
// customers
import customerCreate from './customer-create';
import customerOpen from './customer-open';
import customerEdit from './customer-edit';
import customerTabAccount from './customer-tab-account';
import customerTabSubscriptions from './customer-tab-subscriptions';
import customerTabDevices from './customer-tab-devices';
import customerTabSettings from './customer-tab-settings';
import customerAllocate from './customer-allocate';
// live devices
import bulkManageCurrentConfig from './bulk-manage-current-config';
import bulkManageDeviceTesting from './bulk-manage-device-testing';
import bulkManageChangeConfig from './bulk-manage-change-config';
import deviceRefreshConfig from './device-refresh-config';
import deviceRefreshFirmware from './device-refresh-firmware';
import tabClose from './tab-close';
import tabReopen from './tab-reopen';
import tabNext from './tab-next';
import tabPrev from './tab-prev';
import tabGoTo from './tab-go-to';
import tabPin from './tab-pin';
import tabMoveToOtherPane from './tab-move-to-other-pane';
import paneSplitRight from './pane-split-right';
import paneSplitDown from './pane-split-down';
import paneFocusNext from './pane-focus-next';
import paneGrow from './pane-grow';
import paneShrink from './pane-shrink';
import appLogout from './app-logout';
import listNav from './list-nav';
// alarm reports
import alarmExport from './alarm-export';
import alarmPrint from './alarm-print';
import alarmAddNote from './alarm-add-note';
import alarmToggleEscalation from './alarm-toggle-escalation';
import alarmNext from './alarm-next';
import alarmPrev from './alarm-prev';
import alarmSchedule from './alarm-schedule';
import navScheduledReports from './nav-scheduled-reports';
import managementReport from './management-report';
import usageReport from './usage-report';

export const COMMANDS: readonly Command[] = [
  paletteOpen,
  helpShortcuts,
  navAssets,
  navCustomers,
  navUsers,
  navAlarmReports,
  navBulkUpdate,
  navProfile,
  navSettings,
  navAudit,
  navFleet,
  ...listNav,
  personAdd,
  bulkAddSerial,
  bulkClear,
  deviceOpenBySerial,
  assetsExport,
  // customers
  customerCreate,
  customerOpen,
  customerEdit,
  customerTabAccount,
  customerTabSubscriptions,
  customerTabDevices,
  customerTabSettings,
  customerAllocate,
  usageReport,
  // live devices
  bulkManageCurrentConfig,
  bulkManageDeviceTesting,
  bulkManageChangeConfig,
  deviceRefreshConfig,
  deviceRefreshFirmware,
  // alarm reports
  alarmExport,
  alarmPrint,
  alarmAddNote,
  alarmToggleEscalation,
  alarmNext,
  alarmPrev,
  alarmSchedule,
  navScheduledReports,
  managementReport,
  tabClose,
  tabReopen,
  tabNext,
  tabPrev,
  ...tabGoTo,
  tabPin,
  tabMoveToOtherPane,
  paneSplitRight,
  paneSplitDown,
  paneFocusNext,
  paneGrow,
  paneShrink,
  appLogout,
];
