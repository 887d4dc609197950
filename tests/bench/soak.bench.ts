// A shift without growth: one signed-in workspace in Chromium, against the compiled server, through
// an ARC and stock shift compressed in time: device tabs opened (g d + serial) and closed (Alt+W)
// in both panes, live messages posted to the ingestion endpoint (as a gateway does) for the devices
// whose tabs are open, scanner bursts into Bulk Update, filter and page changes on the asset list,
// and exports of a filtered asset list. A first round of each activity warms the page (its code
// loaded, its caches filled); then everything is garbage-collected and measured, the rest of the
// shift runs, the extra tabs are closed, the asset list set back to its first page without a search
// and the bulk list cleared as at the start, and the same is measured again:
//   - the page's JavaScript heap after a full GC (CDP HeapProfiler.collectGarbage): growth < 10 MB;
//   - DOM nodes in the document within 5 % of the start, and no more nodes of detached trees held
//     by script (CDP DOM.getDetachedDomNodes) than at the start; Chromium's own count
//     (Performance.getMetrics Nodes) is printed beside them, but it also counts nodes out of the
//     document that the browser itself keeps for a while (docs/benchmarks.md, the soak);
//   - event listeners (Performance.getMetrics JSEventListeners) and the hub's groups and
//     connections on the server (/metrics): none left from closed tabs;
//   - the server's resident memory (/proc/<pid>/status VmRSS) over the run: within 50 MB.
// The page's query cache keeps a closed tab's answers for 5 minutes (TanStack Query's gcTime), as
// an 8-hour shift would not notice: the end is measured at once and again after that settle time.
// With the DOM node counts it prints what the nodes are: those in the document by kind (tag, class,
// role, data-testid) with their ancestors, the kinds that grew (10 at most), and the detached trees
// script still holds; so a growth is named, in the document or outside it.
//
// Environment:
//   BENCH_SOAK_FACTOR   share of the full shift (default 1: 2,000 tabs, 20,000 live messages, 500
//                       scans, 300 list changes, 50 exports; 0.02 for a quick check)
//   BENCH_SOAK_SCALE    demo data scale (default 1; 0.1 for a quick check)
//   BENCH_SOAK_SETTLE_S seconds to wait before the second end measurement (default 330; 0: none)
//   BENCH_PORT          the server's port (default 8393)
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page, Request } from 'playwright-core';
import { dataDirOf, launchChromium, loadNote, log, newContext, round1, signIn, sleep, startServer, type BenchServer } from './browser.js';
import { itemAt } from './stats.js';
import { scanSerials } from '../helpers/scanner.js';
import { GATEWAY_KEY_HEADER } from '../../src/shared/schemas/live.js';

const GATEWAY_KEY = 'bench-soak-gateway-key';
const METRICS_TOKEN = 'bench-soak-metrics-token';
const MB = 1024 * 1024;
const GOALS = { heapGrowthMB: 10, nodesPct: 5, rssGrowthMB: 50 };
/** Device tabs opened per round (then closed). */
const TABS_PER_ROUND = 5;

type Device = { id: string; serialNumber: string; imei: string; type: number };
type Snapshot = {
  heapMB: number;
  nodes: number;
  listeners: number;
  documents: number;
  hubGroups: number;
  hubConnections: number;
  rssMB: number;
  /** the server's own memory (heaps, buffers) */
  rssAnonMB: number;
  /** file pages mapped and touched: SQLite's memory-mapped database (the page cache), shared and bounded by the file */
  rssFileMB: number;
};

/** Resident memory of a process (MB): all of it, and its anonymous and file-backed parts. */
const rssParts = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') };
};
const rssNote = (pid: number) => {
  const r = rssParts(pid);
  return `server RSS ${round1(r.rss)} MB (anonymous ${round1(r.anon)}, file-backed ${round1(r.file)})`;
};

async function hubStats(server: BenchServer) {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { groups: value('hub_groups'), connections: value('hub_connections') };
}

async function snapshot(cdp: CDPSession, server: BenchServer): Promise<Snapshot> {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const m = (await cdp.send('Performance.getMetrics')).metrics;
  const v = (name: string) => m.find((x) => x.name === name)?.value ?? NaN;
  const hub = await hubStats(server);
  return {
    heapMB: round1(v('JSHeapUsedSize') / MB),
    nodes: v('Nodes'),
    listeners: v('JSEventListeners'),
    documents: v('Documents'),
    hubGroups: hub.groups,
    hubConnections: hub.connections,
    ...(() => {
      const r = rssParts(server.pid);
      return { rssMB: round1(r.rss), rssAnonMB: round1(r.anon), rssFileMB: round1(r.file) };
    })(),
  };
}

/** Event listeners by target and type: on window, and on document and every node under it. */
async function listenersByType(cdp: CDPSession): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [name, expr, depth] of [
    ['window', 'window', 0],
    ['dom', 'document', -1],
  ] as const) {
    const { result } = await cdp.send('Runtime.evaluate', { expression: expr });
    if (!result.objectId) continue;
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId, depth, pierce: true });
    for (const l of listeners) out.set(`${name}:${l.type}`, (out.get(`${name}:${l.type}`) ?? 0) + 1);
    await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  }
  return out;
}

const listenerGrowth = (a: Map<string, number>, b: Map<string, number>) =>
  [...b.entries()]
    .map(([k, n]) => [k, n - (a.get(k) ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .map(([k, d]) => `${k} ${d > 0 ? '+' : ''}${d}`)
    .join(', ') || 'none';

/**
 * What is on the page, node by node: the document's nodes by kind (an element's tag with its first
 * class, role, data-testid or else its first data-* attribute; text and comments by their parent's
 * kind), each kind with the chains of its ancestors' kinds; the nodes in the document; and the
 * detached trees still held by script (CDP DOM.getDetachedDomNodes). Compared between the start
 * and the end, it names what a growth of the DOM node count is made of.
 */
type DomCensus = {
  /** the page's DOM nodes as Chromium counts them (Performance.getMetrics Nodes): also those of the browser's own shadow trees (a field's editor, a select's parts) and nodes out of the document not yet freed */
  counted: number;
  /** nodes in the document (elements, text, comments, the doctype and the document itself) */
  inDocument: number;
  /** nodes by kind */
  kinds: Record<string, number>;
  /** per kind: nodes by the chain of their nearest ancestors' kinds */
  chains: Record<string, Record<string, number>>;
  /** detached trees held by script: their root's kind and the nodes each holds */
  detached: { root: string; nodes: number }[];
};

/** Run in the page as a string: the bench's TypeScript loader would wrap named functions in a helper the page lacks. */
const CENSUS_SCRIPT = `(() => {
    const kindOf = (n) => {
      if (n.nodeType === Node.TEXT_NODE) return '#text';
      if (n.nodeType === Node.COMMENT_NODE) return '#comment';
      if (n.nodeType !== Node.ELEMENT_NODE) return n.nodeName;
      const el = n;
      let k = el.tagName.toLowerCase();
      const cls = el.classList[0];
      if (cls) k += \`.\${cls}\`;
      const role = el.getAttribute('role');
      if (role) k += \`[role=\${role}]\`;
      const testId = el.getAttribute('data-testid');
      if (testId) k += \`[data-testid=\${testId}]\`;
      else if (!cls && !role) {
        const data = [...el.attributes].find((a) => a.name.startsWith('data-'));
        if (data) k += \`[\${data.name}]\`;
      }
      return k;
    };
    const kinds = {};
    const chains = {};
    let inDocument = 1;
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      inDocument++;
      const kind = kindOf(n);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const up = [];
      for (let p = n.parentElement; p && up.length < 6; p = p.parentElement) up.push(kindOf(p));
      const chain = up.join(' < ');
      const c = (chains[kind] ??= {});
      c[chain] = (c[chain] ?? 0) + 1;
    }
    return { inDocument, kinds, chains };
})()`;

async function domCensus(page: Page, cdp: CDPSession, counted: number): Promise<DomCensus> {
  const inPage = (await page.evaluate(CENSUS_SCRIPT)) as Omit<DomCensus, 'detached' | 'counted'>;
  let detached: DomCensus['detached'] = [];
  try {
    await cdp.send('DOM.enable');
    const { detachedNodes } = await cdp.send('DOM.getDetachedDomNodes');
    detached = detachedNodes.map((d) => {
      // attributes come as [name, value, name, value, …]
      const attrs = d.treeNode.attributes ?? [];
      const at = attrs.findIndex((a, i) => i % 2 === 0 && a === 'class');
      const cls = at >= 0 ? attrs[at + 1]?.split(' ')[0] : undefined;
      return { root: `${d.treeNode.nodeName.toLowerCase()}${cls ? `.${cls}` : ''}`, nodes: d.retainedNodeIds.length };
    });
    await cdp.send('DOM.disable');
  } catch {
    /* a Chromium without DOM.getDetachedDomNodes */
  }
  return { ...inPage, counted, detached };
}

/** The kinds of node that grew from `a` to `b` (most first, `top` of them), each with the ancestor chain that grew most. */
function domGrowth(a: DomCensus, b: DomCensus, top = 10): string[] {
  const changed = [...new Set([...Object.keys(a.kinds), ...Object.keys(b.kinds)])]
    .map((k) => [k, (b.kinds[k] ?? 0) - (a.kinds[k] ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .sort((x, y) => y[1] - x[1]);
  const grew = changed.filter(([, d]) => d > 0).slice(0, top);
  const shrank = changed.filter(([, d]) => d < 0);
  const lines = grew.map(([k, d]) => {
    const ca = a.chains[k] ?? {};
    const cb = b.chains[k] ?? {};
    const [chain] = Object.keys(cb)
      .map((c) => [c, (cb[c] ?? 0) - (ca[c] ?? 0)] as const)
      .sort((x, y) => y[1] - x[1])[0] ?? [''];
    return `+${d} ${k}${chain ? ` in ${chain}` : ''}`;
  });
  const held = (c: DomCensus) => c.detached.reduce((s, d) => s + d.nodes, 0);
  const detachedKinds = new Map<string, number>();
  for (const d of b.detached) detachedKinds.set(d.root, (detachedKinds.get(d.root) ?? 0) + d.nodes);
  return [
    `nodes counted ${a.counted} → ${b.counted}, in the document ${a.inDocument} → ${b.inDocument}, so elsewhere ${a.counted - a.inDocument} → ${b.counted - b.inDocument}; detached trees held by script ${a.detached.length} → ${b.detached.length} (${held(a)} → ${held(b)} nodes${
      detachedKinds.size
        ? `: ${[...detachedKinds.entries()]
            .sort((x, y) => y[1] - x[1])
            .slice(0, 5)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}`
        : ''
    })`,
    ...(lines.length ? lines : ['no kind of node in the document grew']),
    ...(shrank.length
      ? [
          `fewer: ${shrank
            .slice(-5)
            .reverse()
            .map(([k, d]) => `${k} ${d}`)
            .join(', ')}`,
        ]
      : []),
  ];
}

/** Presses keys one after the other outside any field. */
async function keys(page: Page, ...steps: string[]) {
  for (const k of steps) await page.keyboard.press(k);
}

/** Moves the focus out of any field, to the focused tab's page, so shortcuts run. */
async function leaveFields(page: Page) {
  // A page may still move the focus just after an action (Bulk Update focuses its serial field when
  // its tab is shown again, after the tab beside it is closed): blur until two frames pass with no
  // field focused, so the next shortcut's keys do not land in a field.
  // (A string, not a function: the bench's TypeScript loader names functions with a helper the page lacks.)
  await page.evaluate(`(async () => {
    for (let i = 0; i < 20; i++) {
      document.activeElement?.blur?.();
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const a = document.activeElement;
      if (!a || !(a.matches('input, textarea, select') || a.isContentEditable)) return;
    }
  })()`);
}

export async function benchSoak(): Promise<Record<string, number | string>> {
  const factor = Number(process.env.BENCH_SOAK_FACTOR ?? 1);
  const scale = Number(process.env.BENCH_SOAK_SCALE ?? 1);
  const settleS = Number(process.env.BENCH_SOAK_SETTLE_S ?? 330);
  const size = (full: number) => Math.max(1, Math.round(full * factor));
  const want = {
    tabs: size(2000),
    messages: size(20_000),
    scans: Number(process.env.BENCH_SOAK_SCANS ?? size(500)),
    listChanges: size(300),
    exports: size(50),
  };
  const rounds = Math.max(2, Math.ceil(want.tabs / TABS_PER_ROUND));
  log(
    `shift of ${want.tabs} tabs, ${want.messages} live messages, ${want.scans} scans, ${want.listChanges} list changes, ${want.exports} exports in ${rounds} rounds (factor ${factor}, scale ${scale})`,
  );

  const server = await startServer(Number(process.env.BENCH_PORT ?? 8393), {
    compiled: true,
    scale,
    env: { GATEWAY_KEYS: GATEWAY_KEY, SIMULATOR: 'off', METRICS_TOKEN },
  });
  const db = new Database(join(dataDirOf(scale), 'workspace.sqlite'), { readonly: true, fileMustExist: true });
  const devices = db.prepare(`select id, serialNumber, imei, type from devices where imei is not null order by rowid limit 300`).all() as Device[];
  const scanPool = (db.prepare(`select serialNumber from devices order by rowid desc limit ?`).all(Math.max(want.scans, 50)) as { serialNumber: string }[]).map(
    (r) => r.serialNumber,
  );
  db.close();
  if (devices.length < TABS_PER_ROUND * 2) throw new Error(`scale ${scale}: too few devices with an IMEI`);

  const browser = await launchChromium();
  const done = { tabs: 0, messages: 0, scans: 0, listChanges: 0, exports: 0 };
  let messageSeq = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // What the page did lately, for a stall: its console, its failed and unanswered requests.
    const recent: string[] = [];
    const note = (s: string) => {
      recent.push(`${new Date().toISOString().slice(11, 23)} ${s}`);
      if (recent.length > 80) recent.shift();
    };
    const inFlight = new Map<Request, number>();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') note(`console.${m.type()}: ${m.text().slice(0, 300)}`);
    });
    page.on('request', (r) => inFlight.set(r, Date.now()));
    page.on('requestfinished', (r) => inFlight.delete(r));
    /** Failed requests and error answers over the run, by what and where (printed at the end). */
    const trouble = new Map<string, number>();
    const count = (what: string, url: string) => {
      const key = `${what} ${new URL(url).pathname}`;
      trouble.set(key, (trouble.get(key) ?? 0) + 1);
    };
    page.on('requestfailed', (r) => {
      inFlight.delete(r);
      note(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`);
      count(r.failure()?.errorText ?? 'failed', r.url());
    });
    page.on('response', (r) => {
      if (r.status() < 400) return;
      note(`${r.status()} ${r.request().method()} ${r.url()}`);
      count(String(r.status()), r.url());
    });
    /** The page's state when a wait ran out: the queue as the user sees it and what it was waiting for. */
    const stallReport = async () => {
      const state = await page
        .evaluate(() => {
          const pending = JSON.parse(localStorage.getItem('bulk.pendingScans') ?? '[]') as { serial: string; at: number }[];
          const session = JSON.parse(localStorage.getItem('session') ?? 'null') as { expiresAt?: number } | null;
          const sizes = Object.keys(localStorage)
            .map((k) => `${k}=${(localStorage.getItem(k) ?? '').length}`)
            .join(' ');
          return {
            url: location.href,
            focus: (() => {
              const a = document.activeElement as HTMLElement | null;
              return a
                ? `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}${a.getAttribute('aria-label') ? ` "${a.getAttribute('aria-label')}"` : ''}`
                : null;
            })(),
            dialogs: [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].map((d) => (d.textContent ?? '').slice(0, 160)),
            visibility: document.visibilityState,
            online: navigator.onLine,
            pending: pending.length,
            oldestPendingS: pending[0] ? Math.round((Date.now() - pending[0].at) / 1000) : null,
            pendingSerials: pending.slice(0, 5).map((p) => p.serial),
            sessionExpiresInS: session?.expiresAt ? Math.round((session.expiresAt - Date.now()) / 1000) : null,
            queueCallout: [...document.querySelectorAll('[data-testid="bulk-queue"]')].map((e) => e.textContent).join(' | '),
            localStorage: sizes,
          };
        })
        .catch((e: unknown) => ({ evaluateFailed: String(e) }));
      const open = [...inFlight.entries()].map(([r, t]) => `${r.method()} ${r.url()} (${Math.round((Date.now() - t) / 1000)} s)`);
      log(`stall: page ${JSON.stringify(state)}`);
      log(`stall: requests without an answer: ${open.join(', ') || 'none'}`);
      log(`stall: page errors: ${errors.slice(-5).join(' | ') || 'none'}`);
      log(`stall: recent console warnings/errors and failed requests:\n    ${recent.join('\n    ') || 'none'}`);
    };
    await signIn(page, server.url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.enable');

    // The fixed tabs of the shift: the asset list on the left, Bulk Update on the right.
    await leaveFields(page);
    await keys(page, 'g', 'a');
    await page.getByRole('searchbox', { name: 'Search devices' }).filter({ visible: true }).waitFor();
    await leaveFields(page);
    await keys(page, 'Alt+\\');
    await leaveFields(page);
    await keys(page, 'g', 'b');
    await page.getByLabel('Serial Number', { exact: true }).filter({ visible: true }).waitFor();
    let pane = 0;

    const openDevice = async (d: Device) => {
      await leaveFields(page);
      await keys(page, 'g', 'd');
      const prompt = page.getByRole('dialog', { name: 'Open device' });
      await prompt.waitFor();
      await page.keyboard.type(d.serialNumber);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: d.serialNumber, exact: true }).filter({ visible: true }).waitFor({ timeout: 30_000 });
      done.tabs++;
    };
    const closeTab = async () => {
      await leaveFields(page);
      await keys(page, 'Alt+w');
    };

    /** Posts `n` messages spread over `open`, then waits for the last one in the visible device tab. */
    const live = async (open: Device[], n: number) => {
      if (!n || !open.length) return;
      const last = itemAt(open, open.length - 1);
      const body: Record<string, unknown>[] = [];
      // each message a millisecond after the one before: the stream shows the newest first, and
      // the visible tab's last message must be its newest, not one of several of the same instant
      const at = Date.now() - n;
      for (let i = 0; i < n; i++) {
        // the visible tab's device gets the last message
        const d = i === n - 1 ? last : itemAt(open, i % open.length);
        body.push({
          messageId: `soak-${process.pid}-${++messageSeq}`,
          deviceIdentity: d.imei,
          deviceType: d.type,
          date: new Date(at + i).toISOString(),
          message: `Soak message ${messageSeq}`,
          battery: 40 + (messageSeq % 60),
          signal: 50,
          rawMessage: '+RESP:GTINF',
        });
      }
      for (let i = 0; i < body.length; i += 200) {
        const res = await fetch(`${server.url}/api/v1/device-messages/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [GATEWAY_KEY_HEADER]: GATEWAY_KEY },
          body: JSON.stringify(body.slice(i, i + 200)),
        });
        if (res.status !== 200) throw new Error(`ingest: ${res.status} ${await res.text()}`);
      }
      done.messages += n;
      const stream = page.getByRole('region', { name: 'Message Stream' }).filter({ visible: true });
      await stream
        .getByRole('listitem')
        .first()
        .filter({ hasText: `Soak message ${messageSeq}` })
        .waitFor({ timeout: 30_000 })
        .catch(async (e: unknown) => {
          const shown = await stream.getByRole('listitem').evaluateAll((items) => items.slice(0, 3).map((li) => (li.textContent ?? '').slice(0, 120)));
          log(
            `  the visible stream (${last.serialNumber}) waits for 'Soak message ${messageSeq}'; its first rows: ${JSON.stringify(shown)}; hub ${JSON.stringify(await hubStats(server))}`,
          );
          throw e;
        });
    };

    const scans = async (n: number) => {
      if (!n) return;
      // Bulk Update is the other pane's first tab
      await leaveFields(page);
      await keys(page, 'g', 'b');
      const field = page.getByLabel('Serial Number', { exact: true }).filter({ visible: true });
      await field.waitFor();
      await field.focus();
      const serials = Array.from({ length: n }, (_, i) => itemAt(scanPool, (done.scans + i) % scanPool.length));
      const cdpScan = await context.newCDPSession(page);
      await scanSerials(cdpScan, serials);
      await cdpScan.detach();
      await page.waitForFunction(() => (JSON.parse(localStorage.getItem('bulk.pendingScans') ?? '[]') as unknown[]).length === 0, undefined, {
        timeout: 60_000,
      });
      done.scans += n;
    };

    const listChanges = async (n: number) => {
      if (!n) return;
      await leaveFields(page);
      await keys(page, 'g', 'a');
      const search = page.getByRole('searchbox', { name: 'Search devices' }).filter({ visible: true });
      await search.waitFor();
      for (let i = 0; i < n; i++) {
        const grid = page.getByRole('grid', { name: 'Assets' }).filter({ visible: true });
        // filter and page changes alternate over the shift (a round makes one or none)
        if ((done.listChanges + i) % 2 === 0) {
          // a filter change: a search of five characters of a serial (a new query each time)
          const d = itemAt(devices, (done.listChanges + i) % devices.length);
          await search.fill(d.serialNumber.slice(0, 5 + (i % 3)));
        } else {
          await search.fill('');
          const next = page.getByRole('button', { name: 'Next page' }).filter({ visible: true });
          await grid.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 30_000 });
          if (await next.isEnabled()) await next.click();
        }
        await grid.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 30_000 });
      }
      done.listChanges += n;
    };

    const exportsOf = async (n: number) => {
      if (!n) return;
      await leaveFields(page);
      await keys(page, 'g', 'a');
      const search = page.getByRole('searchbox', { name: 'Search devices' }).filter({ visible: true });
      await search.fill(itemAt(devices, done.exports % devices.length).serialNumber.slice(0, 6));
      await page.getByRole('grid', { name: 'Assets' }).filter({ visible: true }).and(page.locator(':not([aria-busy])')).waitFor({ timeout: 30_000 });
      for (let i = 0; i < n; i++) {
        const download = page.waitForEvent('download', { timeout: 120_000 });
        await page.getByRole('button', { name: 'Export', exact: true }).filter({ visible: true }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Export' }).click();
        const file = await download;
        await file.delete();
        done.exports++;
      }
      await search.fill('');
    };

    const clearBulk = async () => {
      await leaveFields(page);
      await keys(page, 'g', 'b');
      const clear = page.getByRole('button', { name: 'Clear Devices Bulk List' }).filter({ visible: true });
      await clear.waitFor();
      if (await clear.isDisabled()) return;
      await clear.click();
      // The question opens a moment after the click: wait for it (a list that needs none clears at once).
      const dialog = page.getByRole('alertdialog');
      const asked = await dialog.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      );
      if (asked) await dialog.getByRole('button', { name: 'Clear' }).click();
      const counts = page.getByTestId('bulk-counts').filter({ visible: true });
      const cleared = (timeout: number) =>
        counts
          .filter({ hasText: /^0 devices/ })
          .waitFor({ timeout })
          .then(
            () => true,
            () => false,
          );
      if (await cleared(5000)) return;
      // One click clears the list; a click that did nothing is a failure of the page, not retried.
      const stored = await page.evaluate(() =>
        Object.fromEntries(
          Object.keys(localStorage)
            .filter((k) => k.startsWith('bulk'))
            .map((k) => [k, (localStorage.getItem(k) ?? '').length]),
        ),
      );
      throw new Error(
        `the first click on Clear Devices Bulk List did not clear the bulk list: 5 s after it the counts say ${JSON.stringify(await counts.allTextContents())}; asked: ${asked}; stored: ${JSON.stringify(stored)}`,
      );
    };

    /** The asset list as at the start: no search, the first page. */
    const listAsAtStart = async () => {
      await leaveFields(page);
      await keys(page, 'g', 'a');
      const search = page.getByRole('searchbox', { name: 'Search devices' }).filter({ visible: true });
      await search.fill('');
      const grid = page.getByRole('grid', { name: 'Assets' }).filter({ visible: true });
      await grid.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 30_000 });
      const first = page.getByRole('button', { name: 'Page 1', exact: true }).filter({ visible: true });
      if ((await first.getAttribute('aria-current')) !== 'page') {
        await first.click();
        await page.getByRole('button', { name: 'Page 1', exact: true }).filter({ visible: true }).and(page.locator('[aria-current="page"]')).waitFor();
        await grid.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 30_000 });
      }
    };

    /** How much of each activity is due by the end of round r (of `rounds`): the first round does each at least once. */
    const due = (total: number, r: number) => Math.max(1, Math.round((total * (r + 1)) / rounds));
    const roundOf = async (r: number) => {
      // device tabs in the pane of this round, live messages into them, then closed
      await keys(page, 'Alt+`');
      pane = 1 - pane;
      const open: Device[] = [];
      const tabs = Math.min(TABS_PER_ROUND, want.tabs - done.tabs);
      for (let i = 0; i < tabs; i++) {
        const d = itemAt(devices, (r * TABS_PER_ROUND + i) % devices.length);
        await openDevice(d);
        open.push(d);
      }
      await live(open, due(want.messages, r) - done.messages);
      for (let i = 0; i < open.length; i++) await closeTab();
      await scans(due(want.scans, r) - done.scans);
      await listChanges(due(want.listChanges, r) - done.listChanges);
      await exportsOf(due(want.exports, r) - done.exports);
    };

    // warm-up: the first round, then the start figures
    /** A round; when a wait in it runs out, what the page showed is printed first. */
    const round = async (r: number) => {
      try {
        await roundOf(r);
      } catch (err) {
        log(`round ${r} failed`);
        await stallReport();
        throw err;
      }
    };
    await round(0);
    await listAsAtStart();
    await clearBulk();
    await sleep(2000);
    const start = await snapshot(cdp, server);
    const startListeners = await listenersByType(cdp);
    const startCensus = await domCensus(page, cdp, start.nodes);
    let rssMax = start.rssMB;
    let anonMax = start.rssAnonMB;
    log(`start (after one round): ${JSON.stringify(start)}; ${loadNote()}`);
    const every = Math.max(1, Math.floor(rounds / 10));
    for (let r = 1; r < rounds; r++) {
      await round(r);
      const rss = rssParts(server.pid);
      rssMax = Math.max(rssMax, rss.rss);
      anonMax = Math.max(anonMax, rss.anon);
      if (r % every === 0)
        log(
          `round ${r}/${rounds}: ${done.tabs} tabs, ${done.messages} messages, ${done.scans} scans, ${done.listChanges} list changes, ${done.exports} exports; ` +
            `${rssNote(server.pid)}; ${((performance.now() - started) / 1000).toFixed(0)} s; ${loadNote()}`,
        );
    }
    await listAsAtStart();
    await clearBulk();
    await sleep(2000);
    const end = await snapshot(cdp, server);
    log(`end: ${JSON.stringify(end)}`);
    const endCensus = await domCensus(page, cdp, end.nodes);
    log(`DOM at the end against the start:\n    ${domGrowth(startCensus, endCensus).join('\n    ')}`);
    log(
      `failed requests and error answers over the run: ${
        [...trouble.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ') || 'none'
      }`,
    );
    log(`listeners on window and the DOM, change since the start: ${listenerGrowth(startListeners, await listenersByType(cdp))}`);
    let settled = end;
    let settledCensus = endCensus;
    if (settleS > 0) {
      log(`waiting ${settleS} s for the query cache's closed-tab answers to expire…`);
      await sleep(settleS * 1000);
      settled = await snapshot(cdp, server);
      log(`end, settled: ${JSON.stringify(settled)}`);
      settledCensus = await domCensus(page, cdp, settled.nodes);
      log(`DOM after the settle against the start:\n    ${domGrowth(startCensus, settledCensus).join('\n    ')}`);
    }
    const heapGrowth = round1(settled.heapMB - start.heapMB);
    const nodesPct = round1(((settled.nodes - start.nodes) / start.nodes) * 100);
    const docNodesPct = round1(((settledCensus.inDocument - startCensus.inDocument) / startCensus.inDocument) * 100);
    const held = (c: DomCensus) => c.detached.reduce((n, d) => n + d.nodes, 0);
    const rssGrowth = round1(Math.max(rssMax, settled.rssMB) - start.rssMB);
    const cpu = process.cpuUsage(cpu0);
    const figures: Record<string, number | string> = {
      ...Object.fromEntries(Object.entries(done).map(([k, v]) => [`done.${k}`, v])),
      heapStartMB: start.heapMB,
      heapEndMB: end.heapMB,
      heapSettledMB: settled.heapMB,
      heapGrowthMB: heapGrowth,
      nodesStart: start.nodes,
      nodesEnd: settled.nodes,
      nodesChangePct: nodesPct,
      documentNodesStart: startCensus.inDocument,
      documentNodesEnd: settledCensus.inDocument,
      documentNodesChangePct: docNodesPct,
      detachedNodesStart: held(startCensus),
      detachedNodesEnd: held(settledCensus),
      listenersStart: start.listeners,
      listenersEnd: settled.listeners,
      documentsStart: start.documents,
      documentsEnd: settled.documents,
      hubGroupsStart: start.hubGroups,
      hubGroupsEnd: settled.hubGroups,
      hubConnectionsStart: start.hubConnections,
      hubConnectionsEnd: settled.hubConnections,
      serverRssStartMB: start.rssMB,
      serverRssMaxMB: round1(rssMax),
      serverRssEndMB: settled.rssMB,
      serverRssGrowthMB: rssGrowth,
      serverRssAnonStartMB: start.rssAnonMB,
      serverRssAnonMaxMB: round1(anonMax),
      serverRssAnonEndMB: settled.rssAnonMB,
      serverRssAnonGrowthMB: round1(Math.max(anonMax, settled.rssAnonMB) - start.rssAnonMB),
      serverRssFileStartMB: start.rssFileMB,
      serverRssFileEndMB: settled.rssFileMB,
      pageErrors: errors.length,
      goalMet:
        heapGrowth < GOALS.heapGrowthMB &&
        Math.abs(docNodesPct) <= GOALS.nodesPct &&
        held(settledCensus) <= held(startCensus) &&
        settled.listeners <= start.listeners &&
        settled.hubGroups <= start.hubGroups &&
        settled.hubConnections <= start.hubConnections &&
        rssGrowth < GOALS.rssGrowthMB
          ? 'yes'
          : 'no',
      seconds: Math.round((performance.now() - started) / 1000),
      benchCpuS: round1((cpu.user + cpu.system) / 1e6),
      load: loadNote(),
    };
    log(
      `JS heap after GC ${start.heapMB} → ${settled.heapMB} MB (growth ${heapGrowth} MB, goal < ${GOALS.heapGrowthMB}); DOM nodes in the document ${startCensus.inDocument} → ${settledCensus.inDocument} (${docNodesPct} %, goal within ${GOALS.nodesPct} %), held detached by script ${held(startCensus)} → ${held(settledCensus)} (goal: no more), counted by Chromium ${start.nodes} → ${settled.nodes} (${nodesPct} %); ` +
        `listeners ${start.listeners} → ${settled.listeners}; hub groups ${start.hubGroups} → ${settled.hubGroups}, connections ${start.hubConnections} → ${settled.hubConnections}; ` +
        `server RSS ${start.rssMB} → max ${round1(rssMax)}, end ${settled.rssMB} MB (growth ${rssGrowth} MB, goal < ${GOALS.rssGrowthMB}; anonymous ${start.rssAnonMB} → max ${round1(anonMax)}, end ${settled.rssAnonMB} MB) → ${figures.goalMet === 'yes' ? 'met' : 'NOT met'}`,
    );
    if (errors.length) log(`page errors: ${errors.slice(0, 5).join(' | ')}`);
    log(`${figures.seconds} s; ${figures.load}`);
    return figures;
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}
