// Case-insensitive binding of request keys (decision "Request keys bind without regard to case",
// docs/decisions/http-and-api.md): what the boundary renames before
// validation, and what it leaves alone.
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { matchKeyCasing } from '../../../src/server/http/input-casing';
import { fieldWords } from '../../../src/server/http/api';

const body = v.object({
  connectionId: v.string(),
  deviceIdentities: v.array(v.string()),
  devices: v.optional(v.array(v.object({ id: v.string(), etag: v.string() }))),
  settings: v.nullable(v.object({ isAutomaticEmailsPaused: v.boolean() })),
});

describe('matchKeyCasing', () => {
  test("the spec's PascalCase keys become the schema's, nested objects and arrays included", () => {
    const input = { ConnectionId: 'c1', DeviceIdentities: ['357'], Devices: [{ Id: 'a', ETAG: 'e' }], Settings: { IsAutomaticEmailsPaused: true } };
    const out = matchKeyCasing(body, input);
    expect(out).toEqual({ connectionId: 'c1', deviceIdentities: ['357'], devices: [{ id: 'a', etag: 'e' }], settings: { isAutomaticEmailsPaused: true } });
    expect(v.safeParse(body, out).success).toBe(true);
    expect(input).toHaveProperty('ConnectionId'); // the input is not changed in place
  });

  test('an exact key wins; unknown keys and keys two schema keys share are left alone', () => {
    expect(matchKeyCasing(body, { connectionId: 'exact', CONNECTIONID: 'other' })).toEqual({ connectionId: 'exact', CONNECTIONID: 'other' });
    expect(matchKeyCasing(body, { somethingElse: 1 })).toEqual({ somethingElse: 1 });
    const both = v.object({ CustomerId: v.optional(v.string()), customerId: v.optional(v.string()) });
    expect(matchKeyCasing(both, { CUSTOMERID: 'x' })).toEqual({ CUSTOMERID: 'x' });
    expect(matchKeyCasing(both, { CustomerId: 'x' })).toEqual({ CustomerId: 'x' });
  });

  test('through pipes and optional wrappers; non-objects pass unchanged', () => {
    const piped = v.pipe(
      v.object({ alarmId: v.string() }),
      v.transform((o) => o.alarmId),
    );
    expect(matchKeyCasing(piped, { AlarmId: 'a' })).toEqual({ alarmId: 'a' });
    expect(matchKeyCasing(v.optional(body), null)).toBeNull();
    expect(matchKeyCasing(body, 'text')).toBe('text');
    expect(matchKeyCasing(body, [1, 2])).toEqual([1, 2]);
  });
});

test('fieldWords names a key in words for messages', () => {
  expect(fieldWords('customerId')).toBe('customer id');
  expect(fieldWords('DeviceIdentities')).toBe('device identities');
  expect(fieldWords('grant_type')).toBe('grant type');
  expect(fieldWords('etag')).toBe('etag');
});
