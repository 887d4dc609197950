// The test machine is shared and often busy: give UI tests room so they fail on behaviour, not on a
// slow scheduler (assertions are unchanged; only how long they may wait).
import { vi } from 'vitest';
import { configure } from '@testing-library/react';

export function slowMachine() {
  vi.setConfig({ testTimeout: 30_000 });
  configure({ asyncUtilTimeout: 5_000 });
}
