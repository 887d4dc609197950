// Small, fast, seeded PRNG (sfc32) for the deterministic demo data. Same seed and stream name
// → same sequence, on every platform (32-bit integer arithmetic only).
import { itemAt } from './lists.js';

/** 32-bit string/number mixer (murmur3-style finaliser over the characters). */
function mix(h: number, v: number) {
  h = Math.imul(h ^ v, 0x5bd1e995);
  h ^= h >>> 15;
  return Math.imul(h, 0x27d4eb2d) >>> 0;
}

function hashParts(parts: readonly (string | number)[], salt: number) {
  let h = (0x9e3779b9 ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  for (const p of parts) {
    const s = typeof p === 'number' ? `#${p}` : p;
    for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
    h = mix(h, 0xff);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** 8 lower-case hex digits of a 32-bit unsigned integer. */
const hex32 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream identified by its parts, e.g. new Rng(seed, 'person', 42). */
  constructor(...parts: (string | number)[]) {
    this.a = hashParts(parts, 0);
    this.b = hashParts(parts, 1);
    this.c = hashParts(parts, 2);
    this.d = hashParts(parts, 3) | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen item; throws on an empty list. */
  pick<T>(list: readonly T[]): T {
    if (list.length === 0) throw new RangeError('Rng.pick: empty list');
    return itemAt(list, Math.floor(this.next() * list.length));
  }

  /** Picks by weight: items are [value, weight] pairs; throws when there are none. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [v, w] of items) {
      r -= w;
      if (r < 0) return v;
    }
    // Rounding can leave r at 0 after the last weight: that is the last item.
    const last = items.at(-1);
    if (!last) throw new RangeError('Rng.weighted: no items');
    return last[0];
  }

  /** n distinct items (n clipped to the list length), in random order. */
  sample<T>(list: readonly T[], n: number): T[] {
    const copy = list.slice();
    const k = Math.min(n, copy.length);
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!]; // i ≤ j < copy.length
    }
    return copy.slice(0, k);
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** n decimal digits (leading zeros allowed). */
  digits(n: number): string {
    let s = '';
    while (s.length < n) s += (this.u32() % 1_000_000_000).toString().padStart(9, '0');
    return s.slice(0, n);
  }

  hex(bytes: number): string {
    let s = '';
    while (s.length < bytes * 2) s += hex32(this.u32());
    return s.slice(0, bytes * 2);
  }

  /** A version-4-shaped UUID drawn from this stream. */
  uuid(): string {
    const a = this.u32();
    const b = this.u32();
    const c = this.u32();
    const d = this.u32();
    const h = hex32(a) + hex32(b) + hex32(c) + hex32(d);
    const variant = '89ab'[c >>> 30];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** An etag in the same format as util.newEtag: '"uuid"'. */
  etag(): string {
    return `"${this.uuid()}"`;
  }
}
