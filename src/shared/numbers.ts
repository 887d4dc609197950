// How counts are written everywhere (lists, dialogs, messages): en-GB grouping, '2,002'.
const COUNT = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** A count as the user reads it: 2002 → '2,002'. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
