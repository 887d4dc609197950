// `npm run seed` argument parsing: flags with separate or inline (=) values, and the errors.
import { expect, test } from 'vitest';
import { parseArgs } from '../../src/server/seed/cli.js';

test('values given separately or inline, flags in any order', () => {
  expect(parseArgs(['--seed', '5', '--scale=0.5', '--reset'])).toEqual({ seed: 5, scale: 0.5, reset: true, help: false });
  expect(parseArgs(['--reset', '--now', '2025-03-14T09:30:00Z', '--seed=8'])).toEqual({
    seed: 8,
    reset: true,
    help: false,
    now: new Date('2025-03-14T09:30:00Z'),
  });
  expect(parseArgs(['-h'])).toEqual({ reset: false, help: true });
  expect(parseArgs([])).toEqual({ reset: false, help: false });
});

test('a value is taken once: the argument after a flag is not read as a flag', () => {
  expect(parseArgs(['--seed', '3', '--scale', '2'])).toEqual({ seed: 3, scale: 2, reset: false, help: false });
  expect(() => parseArgs(['--now', '--reset'])).toThrow('--now must be an ISO date-time');
});

test('errors: a missing value, an unknown option, bad numbers', () => {
  expect(() => parseArgs(['--reset', '--seed'])).toThrow('--seed needs a value');
  expect(() => parseArgs(['--colour', 'red'])).toThrow('unknown option --colour');
  expect(() => parseArgs(['--seed', '1.5'])).toThrow('--seed must be an integer');
  expect(() => parseArgs(['--scale=0'])).toThrow('--scale must be a positive number');
});
