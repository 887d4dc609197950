// Live devices, against a real server on a free port over a SQLite file (WAL), as `npm start` runs:
//   1. ingestion: messages per second sustained for 30 s (batches of 500 from 1,000 devices, two
//      gateways sending at once) — goal ≥ 10,000/s; the server's CPU per message;
//   2. hub fan-out: 5,000 WebSocket clients (the SignalR JSON protocol: negotiate, handshake,
//      joinGroup) subscribed 5 per device across 1,000 devices while 1,000 messages/s are
//      ingested for 20 s: delivery latency p50/p95/p99 (goal p95 < 50 ms), delivered = expected
//      (0 lost), memory per connection (server and clients share the process: an upper bound);
//   3. reconnect storm: the server drops every connection, all 5,000 clients connect and join
//      again at once — time until every client is back in its group (goal < 5 s); the server's
//      CPU per connect. Clients connect as the app's does (straight to the WebSocket, the
//      client's skipNegotiation); the storm is measured again with the hub's negotiate request
//      first, as other SignalR clients connect.
// Sizes: BENCH_INGEST_SECONDS, BENCH_HUB_CLIENTS, BENCH_HUB_DEVICES, BENCH_HUB_RATE, BENCH_HUB_SECONDS.
// Imported by tests/bench/run.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import WebSocket from 'ws';
import { percentile } from './stats.js';
import { testConfig } from '../../src/server/platform/config.js';
import { openSqlite } from '../../src/server/db/index.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { seedReferenceData } from '../../src/server/seed/reference.js';
import { customerRow } from '../helpers/customer-rows.js';
import { signedIn } from '../helpers/auth.js';
import type { IngestMessageInput } from '../../src/shared/schemas/live.js';

/** The server in a process of its own (tests/bench/live-server.ts), so the 5,000 clients here do not share its event loop. */
async function startServer(file: string, port = 0): Promise<{ child: ChildProcess; port: number; stop: () => Promise<void> }> {
  // BENCH_SERVER_PROF=<dir>: the server writes a CPU profile (node --cpu-prof) there when it stops
  const prof = process.env.BENCH_SERVER_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_SERVER_PROF] : [];
  const child = spawn(process.execPath, ['--expose-gc', ...prof, '--import', 'tsx', 'tests/bench/live-server.ts', file, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /ready (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return {
    child,
    port: ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
/** The bench server's memory in use after a full GC (heap + external), in bytes: it answers SIGUSR1 on stdout. */
function memoryOf(child: ChildProcess): Promise<number> {
  return usageOf(child).then((u) => u.memory);
}
/** The bench server's CPU time so far (user + system), in ms. */
function cpuOf(child: ChildProcess): Promise<number> {
  return usageOf(child).then((u) => u.cpuMs);
}
function usageOf(child: ChildProcess): Promise<{ memory: number; cpuMs: number }> {
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      const m = /mem (\d+) (\d+) (\d+)/.exec(d.toString());
      if (!m) return;
      child.stdout!.off('data', onData);
      resolve({ memory: Number(m[1]), cpuMs: Number(m[3]) / 1000 });
    };
    child.stdout!.on('data', onData);
    child.kill('SIGUSR1');
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
/** A small POST over a keep-alive agent (lighter than fetch for thousands of negotiates). */
function postJson(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : { 'content-length': 0 }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const KEY = 'test-gateway-key';
const RS = '\u001e';
const num = (name: string, dflt: number) => (process.env[name] ? Number(process.env[name]) : dflt);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!what() && Date.now() < end) await sleep(20);
}

export async function benchIngest(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
  const db = openSqlite(join(dir, 'bench.sqlite'));
  await migrateToLatest(db);
  await seedReferenceData(db);
  const config = testConfig({ accessTokenSeconds: 3600 });
  const out: Record<string, number | string> = {};

  const nDevices = num('BENCH_HUB_DEVICES', 1000);
  const now = new Date().toISOString();
  const imeis: string[] = [];
  // Devices in the field are allocated to a customer: their messages also keep the fleet state and
  // the daily usage that Fleet Health reads (the triggers of migrations 030 and 032).
  // BENCH_INGEST_ALLOCATED=0 sends from devices in stock instead, to show what those cost.
  const allocated = process.env.BENCH_INGEST_ALLOCATED !== '0';
  const customers = allocated ? Array.from({ length: 10 }, (_, n) => customerRow({ name: `Bench customer ${n + 1}` })) : [];
  if (customers.length) await db.insertInto('customers').values(customers).execute();
  for (let i = 0; i < nDevices; i += 500) {
    const rows = [];
    for (let k = i; k < Math.min(nDevices, i + 500); k++) {
      const imei = `35${String(900_000_000_000 + k).padStart(13, '0')}`;
      imeis.push(imei);
      rows.push({
        id: randomUUID(),
        serialNumber: `BENCH-${String(k).padStart(6, '0')}`,
        imei,
        imsi: null,
        type: 640,
        phoneNumber: null,
        simPhoneNumber: null,
        simSerial: null,
        simTypeId: null,
        simStatus: null,
        supplier: 'Bench',
        status: 3,
        customerId: customers.length ? customers[k % customers.length]!.id : null,
        orderNumber: null,
        isUserAssigned: 0,
        assignedPersonId: null,
        firmwareVersion: '4.3.1',
        lastConfigurationDate: null,
        dateReceived: now,
        lastUpdated: now,
        addedToSystem: now,
        etag: '"b"',
      });
    }
    await db.insertInto('devices').values(rows).execute();
  }
  const admin = await signedIn(db, config, ['SuperAdminRole']);
  const dbFile = join(dir, 'bench.sqlite');
  const srv = await startServer(dbFile);
  const port = srv.port;
  const base = `http://127.0.0.1:${port}`;
  let seq = 0;
  const msg = (imei: string): IngestMessageInput => ({
    messageId: `b-${++seq}`,
    deviceIdentity: imei,
    deviceType: 640,
    date: new Date().toISOString(),
    message: seq % 50 === 0 ? 'SOS alarm' : 'Heartbeat',
    battery: seq % 100,
    signal: (seq * 7) % 100,
    rawMessage: `+RESP:GTHBD,4.3.1,${imei},${seq}$`,
    properties: { MessageType: 'GTHBD', BatteryLevel: seq % 100 },
  });
  const ingest = async (batch: IngestMessageInput[]) => {
    const res = await postJson(`${base}/api/v1/device-messages/ingest`, { 'X-Gateway-Key': KEY }, JSON.stringify(batch));
    if (res.status !== 200) throw new Error(`ingest ${res.status}: ${res.text.slice(0, 300)}`);
  };

  try {
    // ---------------------------------------------------------------- 1. ingestion throughput
    {
      const seconds = num('BENCH_INGEST_SECONDS', 30);
      const BATCH = 500;
      let sent = 0;
      const cpu0 = await cpuOf(srv.child);
      const started = performance.now();
      const until = started + seconds * 1000;
      const batchMs: number[] = [];
      const gateway = async () => {
        let i = 0;
        while (performance.now() < until) {
          const batch = Array.from({ length: BATCH }, () => msg(imeis[i++ % imeis.length]!));
          const t = performance.now();
          await ingest(batch);
          batchMs.push(performance.now() - t);
          sent += BATCH;
        }
      };
      await Promise.all([gateway(), gateway()]);
      const elapsed = (performance.now() - started) / 1000;
      const cpuMs = (await cpuOf(srv.child)) - cpu0;
      batchMs.sort((a, b) => a - b);
      out.ingestMessagesPerSecond = Math.round(sent / elapsed);
      out.ingestDevicesAllocated = allocated ? 1 : 0;
      out.ingestGoal = '>= 10000/s';
      out.ingestServerCpuPerMessageUs = Number(((cpuMs * 1000) / sent).toFixed(1));
      out.ingestLoad = loadavg()[0]!.toFixed(2);
      out.ingestBatchP50Ms = Math.round(percentile(batchMs, 50));
      out.ingestBatchP95Ms = Math.round(percentile(batchMs, 95));
      out.ingestStored = Number(
        (
          await db
            .selectFrom('deviceMessages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      console.log(
        `  ingestion (${allocated ? 'devices allocated to 10 customers: fleet state and daily usage kept' : 'devices in stock'}): ${out.ingestMessagesPerSecond} messages/s over ${elapsed.toFixed(1)} s (goal >= 10,000/s; batch of ${BATCH}: p50 ${out.ingestBatchP50Ms} ms, p95 ${out.ingestBatchP95Ms} ms); server CPU ${out.ingestServerCpuPerMessageUs} µs per message; load ${out.ingestLoad}`,
      );
    }

    // ---------------------------------------------------------------- 2. hub fan-out
    const nClients = num('BENCH_HUB_CLIENTS', 5000);
    type Client = { ws?: WebSocket; identity: string; joined: boolean; received: number };
    const clients: Client[] = Array.from({ length: nClients }, (_, i) => ({ identity: imeis[i % imeis.length]!, joined: false, received: 0 }));
    const latencies: number[] = [];
    let measuring = false;
    let hubToken = '';
    let hubUrl = '';
    const renegotiate = async () => {
      const r = await postJson(`${base}/api/admin/negotiate?userid=${admin.id}`, { authorization: `Bearer ${admin.token}` });
      const b = JSON.parse(r.text) as { Url: string; AccessToken: string };
      hubUrl = b.Url;
      hubToken = b.AccessToken;
    };
    /**
     * WebSocket → handshake → joinGroup, as the app's client connects (skipNegotiation); with
     * `negotiate` the hub's negotiate request first, as other SignalR clients do. Resolves when the
     * group is joined.
     */
    const connect = async (c: Client, negotiate = false): Promise<void> => {
      let query = '';
      if (negotiate) {
        const n = await postJson(`${hubUrl}/negotiate?negotiateVersion=1`, { authorization: `Bearer ${hubToken}` });
        if (n.status !== 200) throw new Error(`hub negotiate ${n.status}`);
        query = `?id=${encodeURIComponent((JSON.parse(n.text) as { connectionToken: string }).connectionToken)}`;
      }
      await new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}${query}`, {
          headers: { authorization: `Bearer ${hubToken}` },
          perMessageDeflate: false,
        });
        c.ws = ws;
        let handshaken = false;
        ws.on('open', () => ws.send(JSON.stringify({ protocol: 'json', version: 1 }) + RS));
        ws.on('message', (data) => {
          const text = data.toString();
          for (const frame of text.split(RS)) {
            if (!frame) continue;
            if (!handshaken) {
              handshaken = true;
              ws.send(JSON.stringify({ type: 1, invocationId: '1', target: 'joinGroup', arguments: [[c.identity]] }) + RS);
              continue;
            }
            if (frame.startsWith('{"type":3')) {
              c.joined = true;
              resolve();
            } else if (frame.includes('"target":"MessageStream"')) {
              c.received++;
              if (measuring) {
                const m = /"Date":"([^"]+)"/.exec(frame);
                if (m) latencies.push(Date.now() - Date.parse(m[1]!));
              }
            }
          }
        });
        ws.on('error', reject);
        ws.on('close', () => {
          if (c.ws === ws) c.joined = false;
          reject(new Error('closed'));
        });
      });
    };
    const connectAll = async (list: Client[], negotiate = false, parallel = 100) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < list.length) {
            const c = list[next++]!;
            for (let attempt = 0; ; attempt++) {
              try {
                await connect(c, negotiate);
                break;
              } catch (e) {
                if (attempt > 50) throw e;
                await sleep(50 + Math.random() * 200);
              }
            }
          }
        }),
      );
    };
    // Clients ping every 10 s as @microsoft/signalr does (15 s): the hub drops a client silent for 30 s.
    const PING = JSON.stringify({ type: 6 }) + RS;
    const pinger = setInterval(() => {
      for (const c of clients) if (c.ws?.readyState === WebSocket.OPEN) c.ws.send(PING);
    }, 10_000);
    await renegotiate();
    await sleep(500);
    const memBefore = await memoryOf(srv.child);
    const connectCpu0 = await cpuOf(srv.child);
    const tConnect = performance.now();
    await connectAll(clients);
    const connectS = (performance.now() - tConnect) / 1000;
    out.hubServerCpuPerConnectMs = Number((((await cpuOf(srv.child)) - connectCpu0) / nClients).toFixed(3));
    await sleep(1000);
    const memAfter = await memoryOf(srv.child);
    out.hubClients = nClients;
    out.hubConnectSeconds = Number(connectS.toFixed(1));
    out.hubMemoryPerConnectionKB = Number(((memAfter - memBefore) / nClients / 1024).toFixed(1));
    console.log(
      `  hub: ${nClients} clients connected and joined in ${connectS.toFixed(1)} s (server CPU ${out.hubServerCpuPerConnectMs} ms per connect: upgrade, handshake, joinGroup); server heap + external +${out.hubMemoryPerConnectionKB} KB per connection (after GC); load ${loadavg()[0]!.toFixed(2)}`,
    );

    const rate = num('BENCH_HUB_RATE', 1000);
    const hubSeconds = num('BENCH_HUB_SECONDS', 20);
    for (const c of clients) c.received = 0;
    const perDevice = new Map<string, number>();
    for (const c of clients) perDevice.set(c.identity, (perDevice.get(c.identity) ?? 0) + 1);
    measuring = true;
    const fanoutCpu0 = await cpuOf(srv.child);
    let expected = 0;
    let k = 0;
    const TICK_MS = 100;
    const perTick = Math.round((rate * TICK_MS) / 1000);
    const start = performance.now();
    for (let tick = 0; tick < (hubSeconds * 1000) / TICK_MS; tick++) {
      const batch = Array.from({ length: perTick }, () => msg(imeis[k++ % imeis.length]!));
      for (const m of batch) expected += perDevice.get(m.deviceIdentity) ?? 0;
      await ingest(batch);
      const wait = start + (tick + 1) * TICK_MS - performance.now();
      if (wait > 0) await sleep(wait);
    }
    const drainUntil = Date.now() + 30_000; // a loaded machine delivers late rather than never: wait for stragglers
    const delivered = () => clients.reduce((a, c) => a + c.received, 0);
    while (delivered() < expected && Date.now() < drainUntil) await sleep(50);
    measuring = false;
    latencies.sort((a, b) => a - b);
    out.hubRatePerSecond = rate;
    out.hubLatencyP50Ms = percentile(latencies, 50);
    out.hubLatencyP95Ms = percentile(latencies, 95);
    out.hubLatencyP99Ms = percentile(latencies, 99);
    out.hubLatencyGoal = 'p95 < 50 ms, 0 lost';
    out.hubServerCpuPerMessageUs = Number(((((await cpuOf(srv.child)) - fanoutCpu0) * 1000) / (rate * hubSeconds)).toFixed(1));
    out.hubLoad = loadavg()[0]!.toFixed(2);
    out.hubExpected = expected;
    out.hubDelivered = delivered();
    out.hubLost = expected - delivered();
    out.hubConnectionsDropped = clients.filter((c) => !c.joined).length;
    console.log(
      `  fan-out at ${rate} msg/s: latency p50 ${out.hubLatencyP50Ms} ms, p95 ${out.hubLatencyP95Ms} ms, p99 ${out.hubLatencyP99Ms} ms; delivered ${out.hubDelivered} of ${expected} (lost ${out.hubLost}; connections dropped: ${out.hubConnectionsDropped}; goal p95 < 50 ms, 0 lost); server CPU ${out.hubServerCpuPerMessageUs} µs per ingested message (ingest + fan-out); load ${out.hubLoad}`,
    );

    // ---------------------------------------------------------------- 3. reconnect storm
    // First as the app's client reconnects (straight to the WebSocket), then with the hub's
    // negotiate request first (other SignalR clients).
    const storm = async (negotiate: boolean) => {
      const stormCpu0 = await cpuOf(srv.child);
      const dropped = performance.now();
      srv.child.kill('SIGUSR2'); // the server drops every connection; all clients reconnect at once
      await until(() => clients.every((c) => !c.joined || c.ws?.readyState !== WebSocket.OPEN), 10_000);
      await renegotiate();
      for (const c of clients) c.joined = false;
      await connectAll(clients, negotiate);
      const seconds = (performance.now() - dropped) / 1000;
      const cpuMs = Number((((await cpuOf(srv.child)) - stormCpu0) / nClients).toFixed(3));
      return { seconds: Number(seconds.toFixed(2)), rejoined: clients.filter((c) => c.joined).length, cpuMs };
    };
    const direct = await storm(false);
    out.reconnectStormSeconds = direct.seconds;
    out.reconnectGoal = '< 5 s';
    out.reconnectRejoined = direct.rejoined;
    out.reconnectServerCpuPerConnectMs = direct.cpuMs;
    console.log(
      `  reconnect storm: ${direct.rejoined} of ${nClients} clients back in their groups ${direct.seconds.toFixed(2)} s after the drop (goal < 5 s; straight to the WebSocket, as the app's client); server CPU ${direct.cpuMs} ms per reconnect; load ${loadavg()[0]!.toFixed(2)}`,
    );
    await sleep(1000);
    const negotiated = await storm(true);
    out.reconnectNegotiateStormSeconds = negotiated.seconds;
    out.reconnectNegotiateRejoined = negotiated.rejoined;
    out.reconnectNegotiateServerCpuPerConnectMs = negotiated.cpuMs;
    console.log(
      `  reconnect storm with the hub's negotiate first (other SignalR clients): ${negotiated.rejoined} of ${nClients} back ${negotiated.seconds.toFixed(2)} s after the drop; server CPU ${negotiated.cpuMs} ms per reconnect; load ${loadavg()[0]!.toFixed(2)}`,
    );
    clearInterval(pinger);
    for (const c of clients) c.ws?.terminate();
  } finally {
    await srv.stop();
    agent.destroy();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
