// The devices group of the palette search: serial number, IMEI and phone number.
import { getHref } from '../../../shared/routes.js';
import { P } from '../../../shared/permissions.js';
import { DEVICE_TYPES } from '../../../shared/codes.js';
import { phoneKey, prefixEnd, ftsPhrase } from '../../lib/search-keys.js';
import { best, fts, joinParts, lookupName, range, rate, trgm, type Match, type SearchProvider, type Tier } from '../../lib/search-provider.js';
import { customerNames } from '../../lib/customer-lookups.js';

type DeviceRow = {
  id: string;
  serialNumber: string;
  imei: string | null;
  phoneNumber: string | null;
  type: number;
  customerId: string | null;
  addedToSystem: string;
};
const DEVICE_COLS = `"id", "serialNumber", "imei", "phoneNumber", "type", "customerId", "addedToSystem"`;

export const deviceSearch: SearchProvider<DeviceRow> = {
  kind: 'device',
  permission: P.DeviceListView,
  prefix(ctx) {
    const out = [
      range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `lower("serialNumber")`),
      // IMEIs are digits: SQLite uses the plain imei index, PostgreSQL lower(imei) collate "C".
      ctx.pg ? range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `lower("imei")`) : range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `"imei"`),
    ];
    // PostgreSQL has a B-tree on the phone key; SQLite finds phone prefixes through FTS (below).
    if (ctx.phone && ctx.pg)
      out.push(range<DeviceRow>(ctx, 'devices', DEVICE_COLS, `search_phone_key("phoneNumber")`, { lo: ctx.phone, hi: prefixEnd(ctx.phone) }));
    return out;
  },
  substring(ctx) {
    if (ctx.pg) {
      const likes: [string, string][] = [
        [`lower("serialNumber")`, ctx.qj],
        [`lower("imei")`, ctx.qj],
      ];
      if (ctx.phone && ctx.phone.length >= 3) likes.push([`search_phone_key("phoneNumber")`, ctx.phone]);
      return trgm<DeviceRow>(ctx, 'devices', DEVICE_COLS, likes, `"addedToSystem" desc`);
    }
    const phone = ctx.phone && ctx.phone.length >= 3 ? ctx.phone : null;
    let m = `{serial imei} : ${ftsPhrase(ctx.q)}`;
    if (phone) m += ` OR phone : ${ftsPhrase(phone)}`;
    return fts<DeviceRow>(ctx, 'devices', DEVICE_COLS, m, ctx.subCap).then(async (list) => {
      // Phone numbers that start with the key are prefix hits. When the substring lookup was
      // complete (fewer rows than the cap) they are already in it; otherwise fetch them apart.
      if (phone && list.length >= ctx.subCap) list = list.concat(await fts<DeviceRow>(ctx, 'devices', DEVICE_COLS, `phone : ^ ${ftsPhrase(phone)}`, ctx.cap));
      return list;
    });
  },
  classify(r, ctx) {
    let phone: Match | null = null;
    if (ctx.phone) {
      const k = phoneKey(r.phoneNumber);
      if (k) {
        const tier: Tier | 0 = k === ctx.phone ? 3 : k.startsWith(ctx.phone) ? 2 : k.includes(ctx.phone) ? 1 : 0;
        if (tier) phone = { tier, matched: 'phone', raw: tier + 0.9 * (ctx.phone.length / k.length) };
      }
    }
    return best(rate(r.serialNumber, ctx.qj, 'serial'), rate(r.imei, ctx.qj, 'imei'), phone);
  },
  score: (m) => m.raw,
  recency: (r) => r.addedToSystem,
  async toHits(items, ctx) {
    const names = await customerNames(
      ctx.db,
      items.map((i) => i.row.customerId).filter((x): x is string => !!x),
    );
    return items.map(({ row, match, score }) => ({
      id: row.id,
      kind: 'device',
      title: row.serialNumber,
      subtitle: joinParts(lookupName(DEVICE_TYPES, row.type), row.customerId ? names.get(row.customerId) : undefined, row.imei),
      href: getHref('device', { deviceId: row.id }),
      score,
      matched: match.matched,
    }));
  },
};
