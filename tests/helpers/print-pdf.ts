// Printing in end-to-end tests, one way for every printable document (the Closed Alarm Report, its
// Analysis, the monthly management report): react-to-print copies the document into its print
// frame (#printWindow) and calls the browser's print; `capturePrint` reads that frame's text and
// HTML while it exists, `printToPdf` prints the captured HTML to a PDF with Chromium (A4, print
// media, the document's @page rules) and reads it back with pdf.js, page by page, as a reader's
// copy-paste would give it.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, type Page } from '@playwright/test';

type Captured = { __printed: string; __printedHtml: string };

/** Starts watching for the print frame; call before the print is triggered. */
export async function capturePrint(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __printed: string; __printedHtml: string };
    w.__printed = '';
    w.__printedHtml = '';
    new MutationObserver(() => {
      const frame = document.getElementById('printWindow') as HTMLIFrameElement | null;
      if (!frame) return;
      const read = () => {
        const text = frame.contentDocument?.body?.innerText ?? '';
        if (text.length > w.__printed.length) {
          w.__printed = text;
          w.__printedHtml = frame.contentDocument?.documentElement.outerHTML ?? '';
        }
        if (frame.isConnected) setTimeout(read, 50);
      };
      read();
    }).observe(document.body, { childList: true });
  });
}

/** The printed document once the print frame held more than `minLength` characters: its text and HTML. */
export async function printedDocument(page: Page, minLength = 200): Promise<{ text: string; html: string }> {
  await expect.poll(() => page.evaluate(() => (window as unknown as Captured).__printed.length), { timeout: 15_000 }).toBeGreaterThan(minLength);
  return page.evaluate(() => {
    const w = window as unknown as Captured;
    return { text: w.__printed, html: w.__printedHtml };
  });
}

/**
 * Prints captured HTML to a PDF in a new page of the same origin (so the document's stylesheets
 * load) and returns the text of each page. `path`: also keep the PDF there.
 */
export async function printToPdf(page: Page, html: string, opts: { path?: string; screenshot?: string } = {}): Promise<string[]> {
  const paper = await page.context().newPage();
  try {
    await paper.goto('/health');
    await paper.setContent(html, { waitUntil: 'load' });
    const pdf = await paper.pdf({ path: opts.path, format: 'A4', printBackground: true, preferCSSPageSize: true });
    if (opts.screenshot) await paper.screenshot({ path: opts.screenshot, fullPage: true });
    return await pdfToPages(pdf);
  } finally {
    await paper.close();
  }
}

/** The text of a PDF, page by page. */
export async function pdfToPages(pdf: Buffer | Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return pages;
}

/** Text without white space: pdf.js splits ligatures ('fi') and runs into separate items, so compare squashed. */
export const squash = (t: string) => t.replace(/\s+/g, '');

/** The positions of `parts` in `text` (squashed), each searched after the previous one: -1 when missing or out of order. */
export function positionsInOrder(text: string, parts: readonly string[]): number[] {
  const s = squash(text);
  let from = 0;
  return parts.map((p) => {
    const i = s.indexOf(squash(p), from);
    if (i >= 0) from = i;
    return i;
  });
}
