// The alarm report detail as the sections read it: the contract's answer of get-details (spec §3).
import type { AlarmCallDto, AlarmNoteDto, AlarmReportDetails, MemoDto } from '../../../shared/schemas/alarm-reports';

export type Detail = AlarmReportDetails;
export type Call = AlarmCallDto;
export type Memo = MemoDto;
export type Note = AlarmNoteDto;
