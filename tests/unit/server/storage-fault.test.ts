// Which errors are the storage's fault (answered 503 'storage_unavailable' / full) rather than a bug
// (500): the database's own codes, and node-postgres' connection errors, which carry no code.
import { expect, test } from 'vitest';
import { storageFault } from '../../../src/server/platform/faults.js';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

test('PostgreSQL going away: its codes and node-postgres connection errors are "unavailable"', () => {
  expect(storageFault(coded('terminating connection due to administrator command', '57P01'))).toEqual({ fault: 'unavailable', code: '57P01' });
  expect(storageFault(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toEqual({ fault: 'unavailable', code: 'ECONNREFUSED' });
  for (const message of [
    'timeout exceeded when trying to connect',
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
  ])
    expect(storageFault(new Error(message)), message).toEqual({ fault: 'unavailable', code: 'connection' });
  // wrapped by the pool: found through the cause as well
  expect(storageFault(new Error('query failed', { cause: new Error('Connection terminated due to connection timeout') }))).toEqual({
    fault: 'unavailable',
    code: 'connection',
  });
});

test('a full disk is "full"; anything else is not the storage', () => {
  expect(storageFault(coded('could not extend file', '53100'))).toEqual({ fault: 'full', code: '53100' });
  expect(storageFault(coded('duplicate key value violates unique constraint', '23505'))).toBeUndefined();
  expect(storageFault(coded('Connection terminated by a trigger', 'P0001'))).toBeUndefined(); // a code of its own: not node-postgres'
  expect(storageFault(new Error('Cannot read properties of undefined'))).toBeUndefined();
});
