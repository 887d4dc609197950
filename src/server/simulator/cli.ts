// `npm run simulate [-- --devices N --interval MS --url http://host:port]`: the device simulator
// against a running server (default http://127.0.0.1:$PORT, else 8080), with the gateway key of
// GATEWAY_KEYS or DATA_DIR/gateway-key.json. It reads the database only to choose its demo
// devices; everything it sends goes through the public ingestion endpoint. Type commands while it
// runs: `sos <serial|IMEI>`, `fall <…>`, `on <…>`, `off <…>`, `list`.
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { demoGatewayKey, loadConfig } from '../platform/config.js';
import { openDatabase } from '../db/index.js';
import { createSimulator } from './simulator.js';
import { simulatedDevices } from './devices.js';
import { log } from '../platform/logger.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

async function main() {
  const config = loadConfig();
  const key = config.gatewayKeys[0] ?? (config.demo ? demoGatewayKey(config.dataDir) : undefined);
  if (!key) throw new Error('no gateway key: set GATEWAY_KEYS (or run with demo data, which generates one)');
  const db = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'workspace.sqlite'), sqlite: config.sqlite });
  const n = Number(arg('devices') ?? config.simulator.devices);
  const devices = await simulatedDevices(db, n);
  await db.destroy();
  const sim = createSimulator({
    baseUrl: arg('url') ?? `http://127.0.0.1:${config.port}`,
    gatewayKey: key,
    devices,
    intervalMs: Number(arg('interval') ?? config.simulator.intervalMs),
    seed: config.seed,
    log,
  });
  sim.start();
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const [cmd = '', target = ''] = line.trim().split(/\s+/);
    if (cmd === 'list') return void log({ devices: sim.devices() });
    if (['sos', 'fall', 'on', 'off'].includes(cmd))
      log({ msg: sim.trigger(target, cmd as 'sos') ? `${cmd} queued for ${target}` : `no simulated device ${target}` });
  });
  const stop = async () => {
    rl.close();
    await sim.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e) => {
  log({ msg: 'fatal', error: String(e?.stack ?? e) });
  process.exit(1);
});
