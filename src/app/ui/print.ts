// Printing a document of a page through react-to-print (A4): the page setup, the hook a page
// prints with, and the @page rules of a named page that give continuation pages a running header
// and every page a footer and 'Page N of M'. The Closed Alarm Report, the management report and
// the usage report print this way.
import { useRef, useState } from 'react';
import { useReactToPrint } from 'react-to-print';

/** The page setup react-to-print puts into the print frame. */
export const PRINT_PAGE_STYLE = `
@page { size: A4; margin: 14mm 12mm; }
html, body { background: #fff !important; color: #000; }
body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
`;

/**
 * Printing a report of this page (`printRef` on the printable element): the page setup above, and
 * `printing` while the print dialog is being prepared. The printable report renders from loaded data
 * (a map is drawn, no images to wait for); the web fonts are awaited so the first page does not
 * print in a fallback font.
 */
export function usePrint(documentTitle: string) {
  const printRef = useRef<HTMLDivElement>(null);
  const [printing, setPrinting] = useState(false);
  const print = useReactToPrint({
    contentRef: printRef,
    documentTitle,
    pageStyle: PRINT_PAGE_STYLE,
    onBeforePrint: async () => {
      setPrinting(true);
      await document.fonts?.ready;
    },
    onAfterPrint: () => setPrinting(false),
    onPrintError: () => setPrinting(false),
  });
  return { printRef, printing, print };
}

/** A CSS string literal: quotes, backslashes, line breaks and '<' escaped. */
const cssString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/</g, '\\3C ').replace(/\r?\n/g, ' ')}"`;

/** The page name of one report (an identifier), so a batch gives each report its own running header. */
export const printPageName = (id: string | number) => `alarm-report-${String(id).replace(/[^a-zA-Z0-9_-]/g, '')}`;

/** The @page rules of one report: footer and page count on every page; person and alarm id on continuation pages. */
export function printPageRules(pageName: string, running: string, footer: string): string {
  const box = 'font-size: 8pt; color: #444; font-family: system-ui, sans-serif;';
  return `
@page ${pageName} {
  @top-left { content: ${cssString(running)}; ${box} }
  @top-right { content: "Page " counter(page) " of " counter(pages); ${box} }
  @bottom-left { content: ${cssString(footer)}; ${box} }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); ${box} }
}
@page ${pageName}:first {
  @top-left { content: none; }
  @top-right { content: none; }
}`;
}
