// Message stream data rules and configuration display (spec document 2 §2, §3, §9).
import { describe, expect, it } from 'vitest';
import { mergeStream, scalarProperties, showLoadMore } from '../../../src/app/features/assets/stream-model';
import { fallDetectionLabel, formatInstant, onOff } from '../../../src/shared/device-config-format';
import { trackingLabel, FALL_PRESET_FALLBACK, type DeviceMessageDto } from '../../../src/shared/schemas/live';
import { makeMessage } from './fixtures';

const at = (id: string, date: string): DeviceMessageDto => makeMessage({ MessageId: id, Date: date });

describe('message stream model', () => {
  it('live messages join the pages once each, newest first', () => {
    const pages = [[at('b', '2026-11-22T10:00:00.000Z'), at('a', '2026-11-22T09:00:00.000Z')]];
    const live = [at('c', '2026-11-22T11:00:00.000Z'), at('b', '2026-11-22T10:00:00.000Z')];
    expect(mergeStream(live, pages).map((m) => m.MessageId)).toEqual(['c', 'b', 'a']);
    // A late live message (older date) is placed by its date, not on top.
    expect(mergeStream([at('z', '2026-11-22T09:30:00.000Z')], pages).map((m) => m.MessageId)).toEqual(['b', 'z', 'a']);
  });

  it("'Load more' at 10 or more messages with a continuation token", () => {
    expect(showLoadMore(10, 'tok')).toBe(true);
    expect(showLoadMore(9, 'tok')).toBe(false);
    expect(showLoadMore(25, null)).toBe(false);
  });

  it('detailed message: the properties string is parsed (twice when double-encoded), scalars only, empty as a dash', () => {
    const props = { Sos: true, Temperature: 21.5, Note: '', Gps: null, Nested: { a: 1 }, List: [1], Mode: 'tracking' };
    const expected = [
      ['Sos', 'Yes'],
      ['Temperature', '21.5'],
      ['Note', '-'],
      ['Gps', '-'],
      ['Mode', 'tracking'],
    ];
    expect(scalarProperties(JSON.stringify(props))).toEqual(expected);
    expect(scalarProperties(JSON.stringify(JSON.stringify(props)))).toEqual(expected);
    expect(scalarProperties('not json')).toEqual([]);
  });

  it('configuration display: tracking in minutes, fall detection by the firmware version’s preset name, on/off, en-GB dates', () => {
    expect(trackingLabel(true, 900)).toBe('On - 15 minutes');
    expect(trackingLabel(false, 900)).toBe('Off');
    expect(trackingLabel(null, null)).toBe('-');
    expect(fallDetectionLabel(true, '030-150-200', '4.3.1')).toBe('On - Default (SG621/640/750)');
    expect(fallDetectionLabel(true, '042-028-020', '5.1.4')).toBe('On - Default');
    expect(fallDetectionLabel(true, '042-028-020', '4.3.1')).toBe(`On - ${FALL_PRESET_FALLBACK}`);
    expect(fallDetectionLabel(false, '030-150-200', '4.3.1')).toBe('Off');
    expect(fallDetectionLabel(null, null, null)).toBe('-');
    expect(onOff(true)).toBe('On');
    expect(onOff(undefined)).toBe('-');
    expect(formatInstant('2026-11-22T09:05:07.000Z', true)).toMatch(/^22\/11\/2026 \d\d:05:07$/);
    expect(formatInstant(null)).toBe('-');
  });
});
