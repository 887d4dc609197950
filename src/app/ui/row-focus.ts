// A row action that removes its own row (Delete, Remove) hands the focus on instead of letting it
// fall to <body> with the row: `const restore = keepRowFocus(button)` before the change, then
// `restore()` once it succeeded. When the row has left the page, the focus goes to the same action
// (by position among the row's buttons) of the row now in its place (the next one, else the one
// before), else to the first control of what held the list. It never takes the focus from
// somewhere the user has moved it to.

const ROW = 'tr, [role="row"], li';
const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

const rowsOf = (list: Element) => [...list.querySelectorAll(ROW)].filter((r) => r.closest('thead') === null);

/** Is the focus lost (on <body>, or on an element that has left the page)? */
const focusLost = (gone: Element) => {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || active === gone;
};

export function keepRowFocus(from: Element | null, holder?: Element | null): () => void {
  const row = from?.closest(ROW) ?? null;
  const list = row?.parentElement?.closest('table, [role="grid"], [role="table"], ul, ol') ?? null;
  if (!from || !row || !list) return () => {};
  // What held the list, nearest first: the first of them still on the page with a control left.
  const holders: Element[] = [];
  for (let el = holder ?? list.parentElement; el && el !== document.body; el = el.parentElement) holders.push(el);
  const index = rowsOf(list).indexOf(row);
  const position = [...row.querySelectorAll(FOCUSABLE)].indexOf(from);
  const place = () => {
    if (!focusLost(from)) return;
    const rows = list.isConnected ? rowsOf(list) : [];
    const target = rows[Math.min(index, rows.length - 1)];
    const inRow = target ? [...target.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
    const around = () => {
      for (const el of holders) {
        const first = el.isConnected ? el.querySelector<HTMLElement>(FOCUSABLE) : null;
        if (first) return first;
      }
      return null;
    };
    const next = inRow[position] ?? inRow[0] ?? around();
    next?.focus();
  };
  return () => {
    // The list re-renders after the change is stored and read back: wait (up to 3 s) for the row to go.
    const started = Date.now();
    const wait = () => {
      if (!row.isConnected) place();
      else if (Date.now() - started < 3000) setTimeout(wait, 30);
    };
    wait();
  };
}
