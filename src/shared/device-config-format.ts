// Display of device configuration values beyond what the contract (schemas/live.ts) words itself,
// shared by the device tab and the bulk management tabs (features never import each other):
//   fall detection  'On - <preset name>' | 'Off' | '-' (spec §2 'On - settings'; the name from
//                   fallPresetName: the firmware version's named option, else its fallback label)
//   switches        'On' | 'Off' | '-'
//   instants        en-GB, 24-hour clock (spec §9)
import { fallPresetName } from './schemas/live.js';

/** Spec §2: 'On - settings' (the preset's name), 'Off', '-' when unknown. */
export function fallDetectionLabel(
  isFallDetection: boolean | null | undefined,
  settings: string | null | undefined,
  firmwareVersion: string | null | undefined,
): string {
  if (isFallDetection === null || isFallDetection === undefined) return '-';
  if (!isFallDetection) return 'Off';
  return `On - ${fallPresetName(settings, firmwareVersion)}`;
}

/** On/Off of a switch-like setting, '-' when unknown. */
export const onOff = (value: boolean | null | undefined) => (value === null || value === undefined ? '-' : value ? 'On' : 'Off');

/** Spec §9: en-GB date and time with a 24-hour clock (optionally with seconds); '-' when empty. */
export function formatInstant(value: string | null | undefined, seconds = false): string {
  if (!value) return '-';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '-';
  const p = (n: number) => String(n).padStart(2, '0');
  const base = `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
  return seconds ? `${base}:${p(d.getSeconds())}` : base;
}
