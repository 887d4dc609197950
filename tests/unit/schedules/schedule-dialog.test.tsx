// The schedule dialog's messages: a field's message goes once the field is typed in, the summary
// is said only for a real time ('25:99' gives none), and a name over the limit is refused with its
// message instead of being cut as it is typed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

vi.mock('../../../src/app/api/http', () => ({ http: vi.fn() }));

import { http } from '../../../src/app/api/http';
import { ScheduleDialog } from '../../../src/app/features/alarm-reports/schedule-dialog';
import { SCHEDULE_NAME_MAX, SCHEDULE_TEXT } from '../../../src/shared/schemas/schedules';
import { P } from '../../../src/shared/permissions';
import { renderPage } from '../persons/helpers';

beforeEach(() => {
  vi.mocked(http).mockReset();
  vi.mocked(http).mockImplementation(async () => ({ Features: [] }) as never);
});
afterEach(cleanup);

describe('schedule dialog messages', () => {
  it('the name message goes when a name is typed; no summary for 25:99; a long name is refused, not cut', async () => {
    renderPage(<ScheduleDialog open onClose={() => {}} filters={{}} defaultRecipient="me@demo.test" />, { permissions: [P.AlarmReportListView] });
    const user = userEvent.setup();
    const name = await screen.findByLabelText(/^Name/);
    await user.click(screen.getByRole('button', { name: /Create|Save|Schedule/ }));
    expect(await screen.findByText(SCHEDULE_TEXT.nameRequired)).toBeInTheDocument();
    await user.type(name, 'Weekly');
    expect(screen.queryByText(SCHEDULE_TEXT.nameRequired)).toBeNull();

    await user.selectOptions(screen.getByLabelText(/^Frequency/), 'weekly');
    const time = screen.getByLabelText(/^Time/);
    await user.clear(time);
    await user.type(time, '25:99');
    expect(screen.queryByText(/at 25:99/)).toBeNull();
    await user.clear(time);
    await user.type(time, '07:30');
    expect(screen.getByText('Weekly on Monday at 07:30')).toBeInTheDocument();

    await user.clear(name);
    await user.click(name);
    await user.paste('x'.repeat(SCHEDULE_NAME_MAX + 5));
    expect(name).toHaveValue('x'.repeat(SCHEDULE_NAME_MAX + 5));
    expect(screen.getByText(SCHEDULE_TEXT.nameTooLong)).toBeInTheDocument();
  });
});
