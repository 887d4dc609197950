// The management report's bar chart leaves room for its longest label before the bars.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { BarChart } from '../../../src/app/features/alarm-reports/management-report-print';

afterEach(cleanup);

describe('management report bar chart', () => {
  it('a long label ends before its bar starts', () => {
    const label = 'Domestic Violence (Precautionary)';
    const { container } = render(
      <BarChart
        title="Alarms by type"
        rows={[
          { label, count: 12 },
          { label: 'SOS', count: 3 },
        ]}
      />,
    );
    const barX = Number(container.querySelector('rect')!.getAttribute('x'));
    // 11px text: at least 6 px a character, plus a gap
    expect(barX).toBeGreaterThan(label.length * 6 + 8);
  });
});
