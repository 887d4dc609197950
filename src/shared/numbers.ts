// How counts are written everywhere (lists, dialogs, messages): en-GB grouping, '2,002'. A whole
// number within the exact range is grouped here, as Intl.NumberFormat('en-GB') writes it: a page's
// first Intl.NumberFormat costs tens of milliseconds (the locale's data), which the workspace's
// first page (the asset list's counts and pager) spends before it paints. Anything else (a
// fraction to round, -0, NaN, infinities, beyond 2^53) goes to Intl, made at its first use.
let count: Intl.NumberFormat | undefined;

/** A count as the user reads it: 2002 → '2,002'. */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
    return n < 0 ? `-${digits}` : digits;
  }
  count ??= new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
  return count.format(n);
}

/**
 * '80%', '98.5%' — a share (0..1) with one decimal only when it is not zero. Beside a `target` (a
 * percentage, judged met on the share rounded to two decimals, as the server judges it) a second
 * decimal is shown when one would put the share on the other side of the target: 79.96% against
 * 80 reads '79.96%', never '80%' next to "Missed".
 */
export function formatPercent(ratio: number, target?: number): string {
  const v = Math.round(ratio * 1000) / 10;
  if (target !== undefined) {
    const judged = Math.round(ratio * 10000) / 100;
    if (v >= target !== judged >= target) return `${judged.toFixed(2).replace(/0$/, '')}%`;
  }
  return `${Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1)}%`;
}

/**
 * Every count-and-percentage label: '391 of 754 (51.9%)', the count first, the percentage its
 * share of the total, so it never reads as its complement. An empty total gives '0 of 0'. Beside a
 * target (a percentage) the share is written so that it reads on the side of the target it is on
 * (formatPercent).
 */
export function formatShare(part: number, total: number, target?: number): string {
  return total > 0 ? `${formatCount(part)} of ${formatCount(total)} (${formatPercent(part / total, target)})` : `${formatCount(part)} of ${formatCount(total)}`;
}
