// A month kept in a tab's link (`?month=YYYY-MM`): the monthly reports (management, usage) read
// and write it there, so a reload or a shared link shows the same month.
import { useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { selectAtom } from 'jotai/utils';
import { useTab } from './tab-context';
import { workspaceAtom } from './state';
import { findTab } from './model';
import { setTabSearch } from './actions';
import { defaultMonth, parseMonth } from '../../shared/management-report';

/** The month a link's query names, if it is a valid one. */
export function monthOfSearch(search: string): string | null {
  const m = new URLSearchParams(search).get('month');
  return m && parseMonth(m) ? m : null;
}

/** The month shown: the link's, else kept in the page (outside a workspace tab), else last month. */
export function useTabMonth(): [string, (m: string) => void] {
  const { tabId } = useTab();
  const hrefAtom = useMemo(() => selectAtom(workspaceAtom, (ws) => findTab(ws, tabId)?.tab.href ?? null), [tabId]);
  const href = useAtomValue(hrefAtom);
  const [local, setLocal] = useState(() => defaultMonth(Date.now()));
  const fromLink = href === null ? null : monthOfSearch(href.includes('?') ? href.slice(href.indexOf('?')) : '');
  const month = fromLink ?? local;
  const set = (m: string) => {
    if (href === null) setLocal(m);
    else setTabSearch(tabId, `?month=${m}`);
  };
  return [month, set];
}
