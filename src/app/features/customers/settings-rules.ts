// Settings tab rules (spec document 2 §2 "Customer settings tab", §6): which toggles a user sees,
// which are usable, and Alarm Report Intelligence forcing auto-generate off.
export type CustomerSettingsValues = {
  IsAutomaticEmailsPaused: boolean;
  AllowDeviceSubscriptionChanges: boolean;
  EnableDiscreetAlarmApp: boolean;
  EnableFallDetectionApp: boolean;
  EnableSmsActivityConfirmation: boolean;
  EnableAlarmReportIntelligence: boolean;
  AutoGenerateAlarmIntelligence: boolean;
};
export type SettingKey = keyof CustomerSettingsValues;

export const SETTING_LABELS: Record<SettingKey, string> = {
  IsAutomaticEmailsPaused: 'Pause email delivery',
  AllowDeviceSubscriptionChanges: 'Allow device subscription changes',
  EnableDiscreetAlarmApp: 'Discreet Alarm App',
  EnableFallDetectionApp: 'Fall Detection App',
  EnableSmsActivityConfirmation: 'SMS Activity Confirmation',
  EnableAlarmReportIntelligence: 'Alarm Report Intelligence',
  AutoGenerateAlarmIntelligence: 'Auto-generate alarm intelligence',
};

const SUPER_ADMIN_ONLY: SettingKey[] = [
  'EnableDiscreetAlarmApp',
  'EnableFallDetectionApp',
  'EnableSmsActivityConfirmation',
  'EnableAlarmReportIntelligence',
  'AutoGenerateAlarmIntelligence',
];

export type SettingsAccess = { superAdmin: boolean; flags: { alarmReportIntelligence: boolean; autoGenerate: boolean } };

/** The toggles this user sees, in the spec's order. */
export function visibleSettings(access: SettingsAccess): SettingKey[] {
  return (Object.keys(SETTING_LABELS) as SettingKey[]).filter((k) => {
    if (SUPER_ADMIN_ONLY.includes(k) && !access.superAdmin) return false;
    if (k === 'EnableAlarmReportIntelligence') return access.flags.alarmReportIntelligence;
    if (k === 'AutoGenerateAlarmIntelligence') return access.flags.alarmReportIntelligence && access.flags.autoGenerate;
    return true;
  });
}

/** A toggle changed: Alarm Report Intelligence off forces auto-generate off. */
export function applySetting(s: CustomerSettingsValues, key: SettingKey, on: boolean): CustomerSettingsValues {
  const next = { ...s, [key]: on };
  if (key === 'EnableAlarmReportIntelligence' && !on) next.AutoGenerateAlarmIntelligence = false;
  return next;
}

/** Auto-generate is usable only while Alarm Report Intelligence is on. */
export const settingDisabled = (s: CustomerSettingsValues, key: SettingKey) => key === 'AutoGenerateAlarmIntelligence' && !s.EnableAlarmReportIntelligence;
