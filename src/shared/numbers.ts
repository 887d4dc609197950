// How counts are written everywhere (lists, dialogs, messages): en-GB grouping, '2,002'.
const COUNT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** A count as the user reads it: 2002 → '2,002'. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** '80%', '98.5%' — a share (0..1) with one decimal only when it is not zero. */
export function formatPercent(ratio: number): string {
  const v = Math.round(ratio * 1000) / 10;
  return `${Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1)}%`;
}

/**
 * Every count-and-percentage label: '391 of 754 (51.9%)', the count first, the percentage its
 * share of the total, so it never reads as its complement. An empty total gives '0 of 0'.
 */
export function formatShare(part: number, total: number): string {
  return total > 0 ? `${formatCount(part)} of ${formatCount(total)} (${formatPercent(part / total)})` : `${formatCount(part)} of ${formatCount(total)}`;
}
