// What the export bar says: 'Waiting for other exports to finish…' only while the export waits for
// a thread (another export runs); taken by a thread and counting rows, 'Counting rows…'.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import { ExportProgressBar } from '../../../src/app/ui/export-progress';
import { MSG } from '../../../src/shared/messages';
import type { ExportProgress } from '../../../src/shared/schemas/exports';

const bar = (p: Partial<ExportProgress> | null) =>
  render(
    <Theme>
      <ExportProgressBar
        job={{
          isPending: true,
          cancel: () => {},
          progress: p && ({ Id: 'x', State: 'running', Total: null, Written: 0, Omitted: 0, Parsed: null, ...p } as ExportProgress),
        }}
      />
    </Theme>,
  );

afterEach(cleanup);

describe('export progress text', () => {
  it('says it waits for other exports only while queued', () => {
    bar({ State: 'queued' });
    expect(screen.getByTestId('export-progress')).toHaveTextContent(MSG.exportQueued);
  });
  it('a running export still counting its rows says so, not that it waits', () => {
    bar({ State: 'running', Total: null });
    expect(screen.getByTestId('export-progress')).toHaveTextContent(MSG.exportStarting);
    expect(screen.getByTestId('export-progress')).not.toHaveTextContent(MSG.exportQueued);
  });
  it('then rows written of total', () => {
    bar({ State: 'running', Total: 2000, Written: 500 });
    expect(screen.getByTestId('export-progress')).toHaveTextContent(MSG.exportProgress(500, 2000));
  });
});
