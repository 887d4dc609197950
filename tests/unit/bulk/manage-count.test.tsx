import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ManageShell } from '../../../src/app/features/bulk-manage/manage-shell';
import { P } from '../../../src/shared/permissions';
import { renderPage } from '../persons/helpers';

afterEach(cleanup);

describe('Configure & Test Devices', () => {
  it('counts the selected devices with thousands separators', () => {
    renderPage(
      <ManageShell current="bulkChangeConfig" count={2002}>
        <p>body</p>
      </ManageShell>,
      { permissions: [P.DeviceListView], route: 'bulkChangeConfig' },
    );
    expect(screen.getByTestId('manage-count').textContent).toBe('2,002 selected devices from the bulk list');
  });
});
