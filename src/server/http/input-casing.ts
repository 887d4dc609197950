// Case-insensitive binding of request keys, as the provider's API binds them (ASP.NET Core's web
// defaults match query and JSON property names without regard to case): a client that sends
// `DeviceIdentities`, `CustomerId` or `AlarmReportId` where a schema names `deviceIdentities`,
// `customerId` or `alarmReportId` is understood. Only keys the schema does not name exactly are
// renamed, and only when exactly one of the schema's keys matches regardless of case; nested
// objects and arrays of objects are followed. The walk of each schema is done once and cached.
import type * as v from 'valibot';

type Shape = {
  /** lower-case key → the schema's spelling (keys whose lower case is shared by two entries are left out) */
  keys?: Map<string, string>;
  /** the schema's spelling → the shape of its value */
  children?: Map<string, Shape>;
  /** arrays: the shape of an item */
  item?: Shape;
};

type Node = { type?: string; wrapped?: unknown; entries?: Record<string, unknown>; item?: unknown };
const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);
const cache = new WeakMap<object, Shape | null>();

function shapeOf(schema: unknown, depth = 0): Shape | null {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const hit = cache.get(schema);
  if (hit !== undefined) return hit;
  const node = schema as Node;
  let shape: Shape | null = null;
  if (node.wrapped) shape = shapeOf(node.wrapped, depth + 1);
  else if (node.type && OBJECT_TYPES.has(node.type) && node.entries) {
    const keys = new Map<string, string>();
    const shared = new Set<string>();
    const children = new Map<string, Shape>();
    for (const [key, value] of Object.entries(node.entries)) {
      const lower = key.toLowerCase();
      if (keys.has(lower)) shared.add(lower);
      keys.set(lower, key);
      const child = shapeOf(value, depth + 1);
      if (child) children.set(key, child);
    }
    for (const lower of shared) keys.delete(lower);
    shape = { keys, children };
  } else if (node.type === 'array' && node.item) {
    const item = shapeOf(node.item, depth + 1);
    shape = item && { item };
  }
  cache.set(schema, shape);
  return shape;
}

function recase(value: unknown, shape: Shape): unknown {
  if (shape.item) return Array.isArray(value) ? value.map((x) => recase(x, shape.item!)) : value;
  if (!shape.keys || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const input = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(input)) {
    const canonical = shape.keys.get(key.toLowerCase());
    if (canonical === undefined || canonical === key || Object.hasOwn(input, canonical)) continue;
    out ??= { ...input };
    out[canonical] = out[key];
    delete out[key];
  }
  const obj = out ?? input;
  for (const [key, child] of shape.children ?? []) {
    if (!Object.hasOwn(obj, key)) continue;
    const next = recase(obj[key], child);
    if (next !== obj[key]) {
      out ??= { ...input, ...obj };
      out[key] = next;
    }
  }
  return out ?? input;
}

/** The input with its keys spelled as the schema spells them (see above); the input itself when nothing changes. */
export function matchKeyCasing(schema: v.GenericSchema<unknown, unknown>, value: unknown): unknown {
  const shape = shapeOf(schema);
  return shape ? recase(value, shape) : value;
}
