// The bulk tabs' filter bars → the spec's request bodies, and the CSV names (spec document 2 §2, §9).
import { describe, expect, it } from 'vitest';
import { csvFileName, toConfigurationsFilter, toLastMessagesFilter } from '../../../src/app/features/bulk-manage/manage-filters';

describe('bulk management filters', () => {
  it('Current Configuration: every filter of the spec, All as null, unknown sort keys fall back', () => {
    expect(
      toConfigurationsFilter(
        ['S1', 'S2'],
        { types: ['640'], call1: ['1'], call2: ['2', '3'], fallDetection: 'yes', tracking: 'no', search: ' 3581 ' },
        { key: 'LastUpdated', desc: true },
      ),
    ).toEqual({
      serialNumbers: ['S1', 'S2'],
      orderBy: 'LastUpdated',
      desc: true,
      deviceTypeIds: [640],
      call1TypeIds: [1],
      call2TypeIds: [2, 3],
      fallDetection: true,
      tracking: false,
      identifier: '3581',
    });
    expect(toConfigurationsFilter([], {}, { key: 'Nope', desc: false })).toMatchObject({
      orderBy: 'Serial',
      fallDetection: null,
      tracking: null,
      identifier: '',
    });
  });

  it('Device Testing: identities, connected, no-messages-only, search', () => {
    expect(toLastMessagesFilter(['I1'], { connected: 'yes', withNoMessagesOnly: true, search: 'SOS', types: ['750'] }, { key: 'Date', desc: true })).toEqual({
      deviceIdentities: ['I1'],
      orderBy: 'Date',
      desc: true,
      deviceTypeIds: [750],
      connected: true,
      searchValue: 'SOS',
      withNoMessagesOnly: true,
    });
  });

  it('CSV files are named CurrentConfiguration / TestingConfiguration with a date stamp', () => {
    const at = new Date(2026, 10, 22, 21, 5, 9);
    expect(csvFileName('CurrentConfiguration', at)).toBe('CurrentConfiguration_2026-11-22_21-05-09.csv');
    expect(csvFileName('TestingConfiguration', at)).toBe('TestingConfiguration_2026-11-22_21-05-09.csv');
  });
});
