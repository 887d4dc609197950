// The client's address, for per-address rate limits and logs. It is the TCP peer (the Node
// socket) unless TRUST_PROXY says how many reverse proxies stand in front of the server: then it
// is the entry the outermost trusted proxy appended to X-Forwarded-For (walking the list from the
// right, one entry per trusted hop). Entries a client wrote itself (left of those) never count,
// so rotating the header cannot dodge a limit. IPv6 clients are counted by their /64 (what one
// subscriber or host gets), so rotating addresses inside it does not help either.
import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Ctx } from './api.js';

/** A bare IP from an X-Forwarded-For entry or socket address ('1.2.3.4:80', '[::1]:80', '::ffff:1.2.3.4' allowed), else undefined. */
export function normaliseAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s)?.[1];
  if (bracketed) s = bracketed;
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.indexOf(':'));
  s = s.replace(/%.*$/, ''); // zone id
  if (isIPv4(s)) return s;
  if (!isIPv6(s)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s);
  return mapped ? mapped[1] : s.toLowerCase();
}

/** The /64 of an IPv6 address ('2001:db8:1:2::/64'); IPv4 unchanged. */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The client address given the socket peer, the X-Forwarded-For header and the trusted hop count. */
export function resolveClientAddress(socket: string | undefined, forwardedFor: string | undefined, trustedHops: number): string | undefined {
  let address = normaliseAddress(socket);
  if (trustedHops > 0 && forwardedFor) {
    const chain = forwardedFor.split(',');
    for (let hop = 0; hop < trustedHops && chain.length; hop++) {
      const next = normaliseAddress(chain.pop());
      if (!next) break; // junk where a trusted proxy should have written: keep the last good one
      address = next;
    }
  }
  return address;
}

/** The key per-address limits count under: the client address (IPv6 by /64), 'unknown' without a socket (app.request in tests). */
export function clientAddress(c: Ctx): string {
  let socket: string | undefined;
  try {
    socket = getConnInfo(c).remote.address;
  } catch {
    socket = undefined; // no Node socket: app.request() in tests
  }
  const address = resolveClientAddress(socket, c.req.header('x-forwarded-for'), c.get('deps').config.trustProxy);
  return address ? addressKey(address) : 'unknown';
}
