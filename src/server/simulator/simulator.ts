// The device simulator: N demo devices that behave like real ones and reach the server only
// through the public ingestion endpoint (POST /api/v1/device-messages/ingest with X-Gateway-Key),
// so a real gateway could replace it. Each tick every device that is on sends one message
// (heartbeats with battery and signal, location fixes, check-ins, now and then an SOS or a fall
// alarm, low battery, power off); a device that is off may power on. The ingestion answer carries
// the commands queued for the devices (configuration changes when a device powers on, refresh
// requests any time): the device applies them and reports its configuration back at once
// ('Configuration acknowledged' with AppliedConfigurationIds). Deterministic for a seed (the
// message ids and dates aside).
import { Rng } from '../seed/rng.js';
import {
  ARC_PHONE_NUMBER,
  CALL_BUTTON,
  DEVICE_MESSAGE,
  GATEWAY_KEY_HEADER,
  fallSettingsOf,
  type DeviceCommand,
  type IngestMessageInput,
  type IngestResponse,
  type ReportedConfiguration,
} from '../../shared/schemas/live.js';
import { CAPABILITY, DEVICE_CAPABILITIES } from '../../shared/codes.js';

export type SimDeviceSpec = { identity: string; serial: string; type: number; firmware: string | null; lat?: number; lng?: number };

type SimDevice = SimDeviceSpec & {
  on: boolean;
  battery: number;
  signal: number;
  lat: number;
  lng: number;
  config: ReportedConfiguration;
  /** messages waiting to go out with the next batch (acknowledgements, alarms asked for) */
  outbox: IngestMessageInput[];
};

export type SimulatorOptions = {
  baseUrl: string;
  gatewayKey: string;
  devices: SimDeviceSpec[];
  intervalMs?: number;
  seed?: number;
  log?: (e: Record<string, unknown>) => void;
  /** all devices start on (default: about 70 %) */
  allOn?: boolean;
};

const FALL_TYPES = new Set([140, 370, 620, 621, 640, 740, 750]);

/** What a device reports after applying a queued change. */
export function applyChange(config: ReportedConfiguration, cmd: DeviceCommand): ReportedConfiguration {
  const c = cmd.Configuration;
  if (!c) return config;
  const next: ReportedConfiguration = { ...config };
  if (c.isTrackingEnabled !== undefined) {
    next.IsTracking = c.isTrackingEnabled;
    next.TrackingSeconds = c.isTrackingEnabled ? (c.trackingIntervalMinutes ?? 15) * 60 : (config.TrackingSeconds ?? null);
  }
  if (c.isManDownEnabled !== undefined) {
    next.IsFallDetection = c.isManDownEnabled;
    if (c.isManDownEnabled && c.manDownSensitivity !== undefined)
      next.FallDetectionSettings = fallSettingsOf(c.manDownSensitivity, c.manDownUpTime ?? 0, c.manDownNonMovementDuration ?? 0);
  }
  const number = (button: number, custom: { phoneNumber: string } | null | undefined) =>
    button === CALL_BUTTON.Arc ? ARC_PHONE_NUMBER : button === CALL_BUTTON.Custom ? (custom?.phoneNumber ?? null) : null;
  if (c.call1Button !== undefined) {
    next.Call1Type = c.call1Button as ReportedConfiguration['Call1Type'];
    next.Call1Number = number(c.call1Button, c.custom1Number);
  }
  if (c.call2Button !== undefined) {
    next.Call2Type = c.call2Button as ReportedConfiguration['Call2Type'];
    next.Call2Number = number(c.call2Button, c.custom2Number);
  }
  return next;
}

export function createSimulator(opts: SimulatorOptions) {
  const rng = new Rng(opts.seed ?? 1, 'simulator');
  const log = opts.log ?? (() => {});
  const intervalMs = opts.intervalMs ?? 5_000;
  let seq = 0;
  const devices: SimDevice[] = opts.devices.map((d) => ({
    ...d,
    on: opts.allOn ? true : rng.chance(0.7),
    battery: rng.int(30, 100),
    signal: rng.int(20, 100),
    lat: d.lat ?? 51.5 + rng.float(-1.5, 1.5),
    lng: d.lng ?? -1.5 + rng.float(-1.5, 1.5),
    config: {
      IsTracking: false,
      TrackingSeconds: 900,
      IsFallDetection: false,
      FallDetectionSettings: FALL_TYPES.has(d.type) ? '030-150-200' : null,
      FirmwareVersion: d.firmware,
      SosButton: true,
      Call1Type: CALL_BUTTON.Arc,
      Call1Number: ARC_PHONE_NUMBER,
      Call2Type: CALL_BUTTON.Disabled,
      Call2Number: null,
      SmsBackup: true,
    },
    outbox: [],
  }));
  const byIdentity = new Map(devices.map((d) => [d.identity, d]));
  const caps = (d: SimDevice) => DEVICE_CAPABILITIES[d.type] ?? 0;

  function msg(d: SimDevice, message: string, properties: Record<string, unknown> = {}, withFix = false): IngestMessageInput {
    seq++;
    const c = caps(d);
    const battery = c & CAPABILITY.Battery ? d.battery : null;
    const signal = c & CAPABILITY.Signal ? d.signal : null;
    const fix = withFix && c & CAPABILITY.SendsLocation;
    const now = new Date();
    return {
      messageId: `sim-${d.identity}-${now.getTime().toString(36)}-${seq}`,
      deviceIdentity: d.identity,
      deviceType: d.type,
      date: now.toISOString(),
      message,
      battery,
      signal,
      location: fix ? { latitude: Number(d.lat.toFixed(6)), longitude: Number(d.lng.toFixed(6)), accuracy: rng.int(3, 40) } : null,
      rawMessage: `+RESP:SIM,${d.firmware ?? '0'},${d.identity},${d.serial},${battery ?? ''},${signal ?? ''},${fix ? `${d.lng.toFixed(6)},${d.lat.toFixed(6)}` : ','},${seq}$`,
      properties: { FirmwareVersion: d.firmware, BatteryLevel: battery, SignalStrength: signal, Simulated: true, ...properties },
    };
  }

  /** One message per device that is on (or powering on). */
  function step(d: SimDevice): IngestMessageInput | undefined {
    if (!d.on) {
      if (!rng.chance(0.2)) return undefined;
      d.on = true;
      d.battery = Math.max(d.battery, 40);
      return msg(d, DEVICE_MESSAGE.powerOn);
    }
    d.battery = Math.max(0, d.battery - (rng.chance(0.3) ? 1 : 0));
    d.signal = Math.min(100, Math.max(5, d.signal + rng.int(-8, 8)));
    d.lat += rng.float(-0.002, 0.002);
    d.lng += rng.float(-0.002, 0.002);
    if (d.battery < 5 || rng.chance(0.03)) {
      d.on = false;
      return msg(d, DEVICE_MESSAGE.powerOff);
    }
    if (d.battery < 15 && rng.chance(0.3)) return msg(d, DEVICE_MESSAGE.lowBattery);
    const roll = rng.next();
    if (roll < 0.015) return msg(d, DEVICE_MESSAGE.sos, { MessageType: 'GTSOS' }, true);
    if (roll < 0.025 && FALL_TYPES.has(d.type)) return msg(d, DEVICE_MESSAGE.fall, { MessageType: 'GTFLD' }, true);
    if (roll < 0.3 || d.config.IsTracking) return msg(d, DEVICE_MESSAGE.location, { MessageType: 'GTFRI' }, true);
    if (roll < 0.36) return msg(d, DEVICE_MESSAGE.checkIn, { MessageType: 'GTCHK' });
    return msg(d, DEVICE_MESSAGE.heartbeat, { MessageType: 'GTHBD' });
  }

  async function send(batch: IngestMessageInput[]): Promise<IngestResponse | undefined> {
    if (!batch.length) return undefined;
    try {
      const res = await fetch(`${opts.baseUrl}/api/v1/device-messages/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [GATEWAY_KEY_HEADER]: opts.gatewayKey },
        body: JSON.stringify(batch),
      });
      const body = (await res.json()) as IngestResponse & { Content?: { Message?: string } };
      if (res.status >= 400 && !body.Results) log({ msg: 'simulator batch refused', status: res.status, error: body.Content?.Message });
      return body.Results ? body : undefined;
    } catch (e) {
      log({ msg: 'simulator could not reach the server', error: String((e as Error)?.message ?? e) });
      return undefined;
    }
  }

  /** Applies the commands of an answer; the acknowledgements go out in a follow-up batch. */
  function handle(answer: IngestResponse | undefined) {
    const acks: IngestMessageInput[] = [];
    for (const cmd of answer?.Commands ?? []) {
      const d = byIdentity.get(cmd.DeviceIdentity);
      if (!d) continue;
      if (cmd.Kind === 'configuration') d.config = applyChange(d.config, cmd);
      acks.push(
        msg(d, DEVICE_MESSAGE.configuration, {
          MessageType: 'GTCFG',
          AppliedConfigurationIds: [cmd.Id],
          ...(cmd.Kind === 'refresh-firmware' ? {} : { Configuration: d.config }),
        }),
      );
    }
    return acks;
  }

  async function tick() {
    const batch: IngestMessageInput[] = [];
    for (const d of devices) {
      // what the device was asked to do replaces its ordinary message of this tick
      if (d.outbox.length) {
        batch.push(...d.outbox.splice(0));
        continue;
      }
      const m = step(d);
      if (m) batch.push(m);
    }
    let acks = handle(await send(batch));
    // acknowledgements may bring more commands (a device with several queued changes): a few rounds at most
    for (let round = 0; acks.length && round < 3; round++) acks = handle(await send(acks));
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let busy: Promise<void> = Promise.resolve();
  const loop = () => {
    if (!running) return;
    busy = tick().finally(() => {
      if (running) timer = setTimeout(loop, intervalMs);
    });
  };

  return {
    devices: () => devices.map((d) => ({ identity: d.identity, serial: d.serial, on: d.on, battery: d.battery, config: d.config })),
    tick,
    start() {
      if (running) return;
      running = true;
      log({ msg: 'device simulator started', devices: devices.length, intervalMs });
      loop();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await busy.catch(() => {});
    },
    /** Makes a device do something on its next tick (the CLI's commands; tests): sos, fall, on, off. */
    trigger(identityOrSerial: string, what: 'sos' | 'fall' | 'on' | 'off') {
      const d = byIdentity.get(identityOrSerial) ?? devices.find((x) => x.serial.toLowerCase() === identityOrSerial.toLowerCase());
      if (!d) return false;
      if (what === 'sos') d.outbox.push(msg(d, DEVICE_MESSAGE.sos, { MessageType: 'GTSOS' }, true));
      else if (what === 'fall') d.outbox.push(msg(d, DEVICE_MESSAGE.fall, { MessageType: 'GTFLD' }, true));
      else if (what === 'on') {
        d.on = true;
        d.outbox.push(msg(d, DEVICE_MESSAGE.powerOn));
      } else {
        d.on = false;
        d.outbox.push(msg(d, DEVICE_MESSAGE.powerOff));
      }
      return true;
    },
  };
}
export type Simulator = ReturnType<typeof createSimulator>;
