// @vitest-environment jsdom
// Display rules of spec document 3 §4 and the activity journal formats of §3, as pure functions.
import { describe, expect, it } from 'vitest';
import {
  callDuration,
  formatDateTime,
  formatDuration,
  formatJournalProperties,
  formatPercent,
  headerName,
  labelStep,
  noteAuthorLabel,
  noteAuthorRoles,
  shortLabel,
  showDuressWords,
  showInstructionsPanel,
  showVehicle,
  sortEscalationPlans,
  what3wordsUrl,
} from '../../../src/app/features/alarm-reports/alarm-format';
import { formatShare } from '../../../src/shared/numbers';
import { printPageName, printPageRules } from '../../../src/app/features/alarm-reports/print-report';
import {
  DEFAULT_ALARM_FILTERS,
  INITIAL_ALARM_LIST,
  closedRangeNote,
  toAlarmListFilter,
  toIsoDay,
} from '../../../src/app/features/alarm-reports/alarm-list-model';
import { parseTarget, readTargets } from '../../../src/app/features/alarm-reports/response-targets';
import { MSG } from '../../../src/shared/messages';

describe('note author label', () => {
  it('is the first role containing manager, else the first containing supervisor, else Unknown', () => {
    expect(noteAuthorLabel(['ArcControllerRole', 'ArcSupervisorRole', 'ArcManagerRole'])).toBe('ArcManagerRole');
    expect(noteAuthorLabel(['ArcControllerRole', 'ArcSupervisorRole'])).toBe('ArcSupervisorRole');
    expect(noteAuthorLabel(['Super Manager', 'Other manager'])).toBe('Super Manager');
    expect(noteAuthorLabel(['ArcControllerRole'])).toBe('Unknown');
    expect(noteAuthorLabel([])).toBe('Unknown');
    expect(noteAuthorLabel(null)).toBe('Unknown');
    // on screen as in print: the author's roles rather than 'Unknown' when the label finds none
    expect(noteAuthorRoles(['ARC Controller'])).toBe('ARC Controller');
    expect(noteAuthorRoles(['ARC Manager', 'ARC Controller'])).toBe('ARC Manager');
    expect(noteAuthorRoles([])).toBe('Unknown');
  });
});

describe('calls', () => {
  it("shows 'Call failed' for zero duration and drops fractional seconds otherwise", () => {
    expect(callDuration(0)).toBe(MSG.callFailed);
    expect(callDuration(0)).toBe('Call failed');
    expect(callDuration(42.99)).toBe('42s');
    expect(callDuration(125.7)).toBe('2m 05s');
    expect(formatDuration(3725.5)).toBe('1h 02m 05s');
    expect(formatDuration(null)).toBe('-');
  });
});

describe('sections shown only when they apply', () => {
  it('duress words only when active; vehicle only when owned or used', () => {
    expect(showDuressWords({ DuressWordsActive: true })).toBe(true);
    expect(showDuressWords({ DuressWordsActive: false })).toBe(false);
    expect(showDuressWords(null)).toBe(false);
    expect(showVehicle({ VehicleOwnedOrUsed: true })).toBe(true);
    expect(showVehicle({ VehicleOwnedOrUsed: false })).toBe(false);
  });

  it('the instructions panel needs at least one of its six reasons', () => {
    const none = {
      instruction: { SpecialInstructions: [], DuressWordsActive: false },
      medical: { HearingImpairment: false, MedicalConditions: [] },
      riskProfiles: [],
      company: {},
    };
    expect(showInstructionsPanel(none)).toBe(false);
    expect(showInstructionsPanel({ ...none, instruction: { SpecialInstructions: ['x'], DuressWordsActive: false } })).toBe(true);
    expect(showInstructionsPanel({ ...none, instruction: { SpecialInstructions: [], DuressWordsActive: true } })).toBe(true);
    expect(showInstructionsPanel({ ...none, medical: { HearingImpairment: true, MedicalConditions: [] } })).toBe(true);
    expect(showInstructionsPanel({ ...none, medical: { HearingImpairment: false, MedicalConditions: [{}] } })).toBe(true);
    expect(showInstructionsPanel({ ...none, riskProfiles: [{}] })).toBe(true);
    expect(showInstructionsPanel({ ...none, company: { IsNationalResponse: true } })).toBe(true);
  });
});

describe('escalation plans', () => {
  it('primary teams first, then the default plan, then by plan name', () => {
    const t = (name: string, plan: string, primary = false, def = false) => ({
      Team: { Name: name, PrimaryGroup: primary },
      EscalationPlan: { Name: plan },
      DefaultEscalationPlan: def,
    });
    const input = [t('A', 'Charlie'), t('B', 'alpha'), t('C', 'Zulu', false, true), t('D', 'Yankee', true), t('E', 'Bravo', true, true)];
    expect(sortEscalationPlans(input).map((x) => x.Team.Name)).toEqual(['E', 'D', 'C', 'B', 'A']);
    expect(input.map((x) => x.Team.Name)).toEqual(['A', 'B', 'C', 'D', 'E']); // not mutated
  });
});

describe('activity journal CustomProperties', () => {
  const f = (o: unknown) => formatJournalProperties(JSON.stringify(o)).map((l) => `${l.label}: ${l.value}`);
  it('renders every kind with its fields in the spec order', () => {
    expect(f({ kind: 'call', to: '+441', from: '+442', duration: 65.9, status: 'completed' })).toEqual([
      'To: +441',
      'From: +442',
      'Duration: 1m 05s',
      'Status: completed',
    ]);
    expect(f({ kind: 'email', to: 'a@b', subject: 'S', content: 'C', status: 'Sent' })).toEqual(['To: a@b', 'Subject: S', 'Content: C', 'Status: Sent']);
    expect(f({ kind: 'sms', to: '+44', body: 'B', status: 'Delivered' })).toEqual(['To: +44', 'Body: B', 'Status: Delivered']);
    expect(f({ kind: 'location', googleApiAddress: 'Addr', latitude: 51.5, longitude: -0.1, w3WAddress: 'a.b.c', gridReference: 'SU 1 2' })).toEqual([
      'Address: Addr',
      'Latitude: 51.5',
      'Longitude: -0.1',
      'what3words: a.b.c',
      'Grid reference: SU 1 2',
    ]);
    expect(f({ kind: 'verification', type: 'False', category: 'Ghost' })).toEqual(['Type: False', 'Category: Ghost']);
    expect(f({ kind: 'note', text: 'Hello' })).toEqual(['Note: Hello']);
    expect(f({ kind: 'supportIssueRaised', controllerName: 'Kim', issueRaisedDate: '2026-11-22T10:00:05.000Z' })).toEqual([
      'Controller: Kim',
      `Raised: ${formatDateTime('2026-11-22T10:00:05.000Z')}`,
    ]);
    expect(f({ kind: 'alarmNotice', expiryDate: '2026-11-29T10:00:00.000Z', notice: 'N' })).toEqual([
      `Expires: ${formatDateTime('2026-11-29T10:00:00.000Z')}`,
      'Notice: N',
    ]);
    expect(f({ kind: 'alarmType', trigger: 'SOS Button' })).toEqual(['Trigger: SOS Button']);
  });
  it('recognises a kind by its fields when `kind` is missing, and shows - for missing values', () => {
    expect(f({ to: 'x', body: 'hi' })).toEqual(['To: x', 'Body: hi', 'Status: -']);
  });
  it('renders nothing for unparseable or unknown JSON', () => {
    expect(formatJournalProperties('{not json')).toEqual([]);
    expect(formatJournalProperties('')).toEqual([]);
    expect(formatJournalProperties('[1,2]')).toEqual([]);
    expect(formatJournalProperties('{"foo":1}')).toEqual([]);
    expect(formatJournalProperties('null')).toEqual([]);
  });
});

describe('header, dates, links', () => {
  it('names the person, falling back to the incoming call number', () => {
    expect(headerName({ FirstName: 'Ann', LastName: 'Lee' }, '+44 1')).toBe('Ann Lee');
    expect(headerName({ FirstName: '', LastName: '' }, '+44 1')).toBe('+44 1');
    expect(headerName(null, null)).toBe('-');
  });
  it('dates are 24-hour en-GB with seconds', () => {
    expect(formatDateTime('2026-01-05T14:03:09Z')).toBe('05 Jan 26 14:03:09');
    expect(formatDateTime('nonsense')).toBe('-');
  });
  it('what3words link', () => {
    expect(what3wordsUrl('///filled.count.soap')).toBe('https://what3words.com/filled.count.soap');
    expect(what3wordsUrl(null)).toBeNull();
  });
  it('chart labels and percentages', () => {
    expect(shortLabel('21/11/2026', 2)).toBe('21/11');
    expect(shortLabel('Nov 2026', 6)).toBe('Nov 2026');
    expect(labelStep(30, 3)).toBe(3);
    expect(labelStep(7, 2)).toBe(1);
    expect(formatPercent(0.8)).toBe('80%');
    expect(formatPercent(0.985)).toBe('98.5%');
  });
  it('a share beside its target reads on the side of the target the server judged it on', () => {
    // 79.96% is judged against 80 on two decimals: Missed; one decimal would read '80%'
    expect(formatPercent(0.7996, 80)).toBe('79.96%');
    expect(formatShare(7996, 10000, 80)).toBe('7,996 of 10,000 (79.96%)');
    // the same side either way: one decimal as everywhere else
    expect(formatPercent(0.7996)).toBe('80%');
    expect(formatPercent(0.8004, 80)).toBe('80%');
    expect(formatPercent(0.519, 80)).toBe('51.9%');
    // 98.46% against 98.5: Missed, not '98.5%'
    expect(formatPercent(0.9846, 98.5)).toBe('98.46%');
    expect(formatPercent(0.985, 98.5)).toBe('98.5%');
    // every share from 0 to 100% in steps of 0.01: what is written is on the judged side
    const wrongSide: string[] = [];
    for (let i = 0; i <= 10000; i++) {
      const ratio = i / 10000;
      for (const target of [80, 98.5]) {
        const shown = formatPercent(ratio, target);
        if (Number(shown.replace('%', '')) >= target !== Math.round(ratio * 10000) / 100 >= target) wrongSide.push(`${ratio} against ${target}: ${shown}`);
      }
    }
    expect(wrongSide).toEqual([]);
  });
});

describe('list defaults and filter mapping', () => {
  it('starts at page 1, date range option 2, verification type 1, closed date descending', () => {
    const f = toAlarmListFilter(INITIAL_ALARM_LIST);
    expect(f).toMatchObject({
      page: 1,
      pageSize: 10,
      alarmClosedDateRangeOption: 2,
      alarmVerificationTypes: [1],
      sortBy: 'AlarmClosedDate',
      sortDescending: true,
    });
    expect(DEFAULT_ALARM_FILTERS).toEqual({ dateRange: '2', alarmVerificationTypes: ['1'] });
  });
  it('maps every filter, dates from DD/MM/YYYY to the contract days', () => {
    const f = toAlarmListFilter({
      ...INITIAL_ALARM_LIST,
      filters: {
        search: ' abc ',
        dateRange: '7',
        dateFrom: '01/11/2026',
        dateTo: '05/11/2026',
        tierTypes: ['3'],
        alarmTypes: ['1', '2'],
        alarmVerificationCategoryTypes: ['101'],
        deviceTypes: ['750'],
        arcControllerIds: ['x-id'],
        customerAccountFullName: 'Heron',
        personFullName: 'Sam',
      },
    });
    expect(f).toMatchObject({
      searchValue: 'abc',
      alarmClosedDateRangeOption: 7,
      alarmClosedDateFrom: '2026-11-01',
      alarmClosedDateTo: '2026-11-05',
      tierTypes: [3],
      alarmTypes: [1, 2],
      alarmVerificationTypes: [],
      alarmVerificationCategoryTypes: [101],
      deviceTypes: [750],
      arcControllerIds: ['x-id'],
      customerAccountFullName: 'Heron',
      personFullName: 'Sam',
    });
    expect(toIsoDay('31/02/2026')).toBeNull();
  });
  it('response targets default to 80 % and 98.5 % and ignore bad stored values', () => {
    expect(readTargets(null)).toEqual({ within10: 80, within40: 98.5 });
    expect(readTargets('{"within10":90,"within40":150}')).toEqual({ within10: 90, within40: 98.5 });
    expect(readTargets('garbage')).toEqual({ within10: 80, within40: 98.5 });
  });
});

describe('next / previous report', () => {
  it('walks the rows of the last list shown, and stops at either end', async () => {
    const { neighbourAlarm, setAlarmListOrder } = await import('../../../src/app/features/alarm-reports/alarm-events');
    setAlarmListOrder(['a', 'b', 'c']);
    expect(neighbourAlarm('b', 1)).toBe('c');
    expect(neighbourAlarm('b', -1)).toBe('a');
    expect(neighbourAlarm('c', 1)).toBeNull();
    expect(neighbourAlarm('a', -1)).toBeNull();
    expect(neighbourAlarm('zzz', 1)).toBeNull();
  });
});

describe('battery gauge (spec §9)', () => {
  it("a percentage, '-' without a value, 'n/a' when the device type has no Battery capability", async () => {
    const { formatBattery, ALARM_TEXT } = await import('../../../src/app/features/alarm-reports/alarm-format');
    expect(formatBattery(57.4, 10)).toBe('57%');
    expect(formatBattery(null, 10)).toBe('-');
    expect(formatBattery(80, 803)).toBe('n/a'); // Spot Gen3: no Battery capability
    expect(formatBattery(null, 70)).toBe(ALARM_TEXT.batteryNotApplicable);
    expect(ALARM_TEXT.batteryNotSupported).toBe('Not supported');
    expect(formatBattery(80)).toBe('80%'); // type unknown: the value as it is
  });
});

describe('next / previous report across pages', () => {
  it('past a page end it reads the neighbouring page; the list ends stop it', async () => {
    const { setAlarmListOrder, stepAlarm } = await import('../../../src/app/features/alarm-reports/alarm-events');
    const pages: Record<number, string[]> = { 1: ['a', 'b'], 2: ['c', 'd'], 3: ['e'] };
    const read: number[] = [];
    const fetchPage = async (p: number) => {
      read.push(p);
      return pages[p] ?? [];
    };
    setAlarmListOrder(pages[2]!, { page: 2, pageCount: 3, fetchPage });
    expect(await stepAlarm('c', 1)).toBe('d');
    expect(await stepAlarm('d', 1)).toBe('e');
    expect(await stepAlarm('e', 1)).toBeNull(); // last page, last report
    expect(await stepAlarm('e', -1)).toBe('d');
    expect(await stepAlarm('c', -1)).toBe('b');
    expect(await stepAlarm('a', -1)).toBeNull();
    expect(read).toEqual([3, 2, 1]);
  });
});

describe('printed pages', () => {
  it('name each report page and escape the running header as a CSS string', () => {
    expect(printPageName('5b29-03d6/x')).toBe('alarm-report-5b29-03d6x');
    const rules = printPageRules('alarm-report-1', 'Anne "Nan" O\\Neil · Alarm 7</style>', 'Closed Alarm Report · Escalation plan followed: Yes');
    expect(rules).toContain('@page alarm-report-1 {');
    expect(rules).toContain('content: "Anne \\"Nan\\" O\\\\Neil · Alarm 7\\3C /style>"');
    expect(rules).toContain('"Page " counter(page) " of " counter(pages)');
    expect(rules).toMatch(/@page alarm-report-1:first \{\s*@top-left \{ content: none; \}/);
  });
});

describe('contradictory filter inputs', () => {
  it("explains a date range option beside a 'Closed from' date, except with All Time", () => {
    expect(closedRangeNote({ dateRange: '1', dateFrom: '19/11/2026' })).toBe(MSG.closedRangeAndFrom);
    expect(closedRangeNote({ dateFrom: '19/11/2026' })).toBe(MSG.closedRangeAndFrom); // the default, Last 7 days
    expect(closedRangeNote({ dateRange: '7', dateFrom: '19/11/2026' })).toBeNull();
    expect(closedRangeNote({ dateRange: '1', dateTo: '19/11/2026' })).toBeNull();
  });
  it('accepts a target from 0 to 100 % only', () => {
    expect(parseTarget('150')).toBeNull();
    expect(parseTarget('-1')).toBeNull();
    expect(parseTarget('')).toBeNull();
    expect(parseTarget('100')).toBe(100);
    expect(parseTarget(' 0 ')).toBe(0);
    expect(parseTarget('97.5')).toBe(97.5);
  });
});
