import { defineCommand } from '../src/app/keyboard/define';
import { ROUTES, getHref } from '../src/app/paths';
import { MSG } from '../src/shared/messages';

/** Asks for a serial, looks the device up (GET /api/v1/device/get-by-serial) and opens its tab. */
export default defineCommand({
  id: 'device.open-by-serial',
  title: 'Open device by serial number',
  group: 'Devices',
  keys: 'g d',
  permission: ROUTES.device.permission,
  keywords: ['device', 'serial', 'asset', 'find device', 'lookup'],
  run: async (ctx) => {
    // Loaded on use: the prompt and the HTTP client need a browser (this module also loads in the doc generator).
    const [{ askSerial }, { getDeviceBySerial }, { errorStatus }] = await Promise.all([
      import('../src/app/features/assets/serial-prompt'),
      import('../src/app/api/devices'),
      import('../src/app/api/query-client'),
    ]);
    const serial = await askSerial({ title: 'Open device', label: 'Serial number', submitLabel: 'Open' });
    if (!serial) return;
    try {
      const device = await getDeviceBySerial(serial);
      ctx.openRoute(getHref('device', { deviceId: device.id }), { beside: ctx.beside, focus: true });
    } catch (err) {
      // Spec §8: an unknown single lookup is "Couldn't get any info about this device."
      throw errorStatus(err) === 404 ? new DeviceLookupError(MSG.deviceUnknown) : err;
    }
  },
});

class DeviceLookupError extends Error {
  data = { Content: { Message: this.message } };
}
