// The calendar of a date box (ui/date-field.tsx): react-day-picker and its stylesheet, in a chunk
// of their own, loaded when a page with a date box mounts, not with the workspace.
import { DayPicker, type Matcher } from 'react-day-picker';
import { enGB } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { londonCalendarToday } from '../../shared/dates';

export type DateCalendarProps = { selected: Date | undefined; last: Date | undefined; disabled: Matcher[]; onSelect: (day: Date | undefined) => void };

export function DateCalendar({ selected, last, disabled, onSelect }: DateCalendarProps) {
  return (
    <DayPicker
      mode="single"
      autoFocus
      locale={enGB}
      weekStartsOn={1}
      today={londonCalendarToday()}
      selected={selected}
      defaultMonth={selected ?? last ?? new Date()}
      disabled={disabled}
      endMonth={last}
      onSelect={onSelect}
    />
  );
}
