// Subscriptions tab rules (spec document 2 §2 "Customer subscriptions tab", §4 saving, §5):
// quantities, row highlights, which device rows show, the tracking interval and the
// over-allocation question, and whether someone else saved since the form was loaded.
import { MSG } from '../../../shared/messages';

/** Spec §5: purchased quantities must be non-empty non-negative whole numbers. */
export const isQuantity = (s: string) => /^\d+$/.test(s.trim());
export const allQuantities = (values: readonly string[]) => values.every(isQuantity);

/** Phone subscription row: an error when assigned exceeds the entered purchased count. */
export const phoneRowError = (assigned: number, entered: string) => isQuantity(entered) && assigned > Number(entered.trim());

/** Device subscription row: error if allocated exceeds purchased, warning if purchased exceeds allocated. */
export function deviceRowTone(allocated: number, entered: string): 'error' | 'warning' | null {
  if (!isQuantity(entered)) return 'error';
  const purchased = Number(entered.trim());
  if (allocated > purchased) return 'error';
  if (purchased > allocated) return 'warning';
  return null;
}

/** Only types with purchased or allocated above 0 show, unless 'Show all' is ticked. */
export const deviceRowVisible = (row: { purchased: number; allocated: number }, showAll: boolean) => showAll || row.purchased > 0 || row.allocated > 0;

/** Spec §5: tracking interval required while tracking is on, at least 5 minutes. */
export function trackingIntervalError(trackingOn: boolean, interval: string): string | null {
  if (!trackingOn) return null;
  const t = interval.trim();
  if (!/^\d+$/.test(t) || Number(t) < 5) return MSG.atLeast5;
  return null;
}
/** Sent as a number, 0 if empty. */
export const trackingIntervalOut = (interval: string) => (/^\d+$/.test(interval.trim()) ? Number(interval.trim()) : 0);

/** Device type names whose allocated count exceeds the entered purchased number. */
export function overAllocatedNames(rows: readonly { name: string; allocated: number; entered: string }[]): string[] {
  return rows.filter((r) => isQuantity(r.entered) && r.allocated > Number(r.entered.trim())).map((r) => r.name);
}

type SubscriptionEtags = { CustomerEtag: string | null; DeviceSubscriptions: { Etag: string | null }; AppSubscriptions: { Etag: string | null } };

/** Spec §4 saving: the fresh etags differ from those the form was loaded with — someone saved meanwhile. */
export const subscriptionEtagsChanged = (loaded: SubscriptionEtags, fresh: SubscriptionEtags) =>
  loaded.CustomerEtag !== fresh.CustomerEtag ||
  loaded.DeviceSubscriptions.Etag !== fresh.DeviceSubscriptions.Etag ||
  loaded.AppSubscriptions.Etag !== fresh.AppSubscriptions.Etag;
