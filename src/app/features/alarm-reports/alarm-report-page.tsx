// Closed Alarm Report, the detail tab of /alarm-reports/{alarmId} (spec §2 "Alarm report detail
// page", §3, §4, §8): header with the person (or the incoming call's number) and the company, Export
// to PDF with the export permission, the sections in the spec's order, the 'Escalation plan
// followed' checkbox and Add Note behind the note permission (read-only checkbox and no button
// without it), recordings and voice memos that play and download, the 'Full Profile' dialog, and
// the printable report (react-to-print) the print command and the button share.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Button, Flex, Heading, Text } from '@radix-ui/themes';
import { useTab } from '../../workspace/tab-context';
import { PageLoading, PageMessage } from '../../workspace/page-message';
import { useCan } from '../../state/session';
import { toast } from '../../ui/toast';
import { PersonDetails, PersonDetailsDialog, personTitle, type PersonReadView } from '../../ui/person-details';
import { errorMessage, errorStatus } from '../../api/query-client';
import { adminKeys, useRecordHistory } from '../../api/admin';
import { useRecordLive } from '../../api/record-live';
import { mayReloadTab } from '../../workspace/actions';
import { RecordLiveBar } from '../../ui/record-live-bar';
import {
  addNoteToCache,
  alarmReportAnalysisQuery,
  alarmReportDetailsQuery,
  alarmReportKeys,
  generateAlarmReportAnalysis,
  logCallDownload,
  patchEscalationInCache,
  alarmLineRecordingQuery,
  secondLineRecordingQuery,
  updateEscalationPlanFollowed,
  voiceMemoQuery,
  type AlarmReportDetails,
} from '../../api/alarm-reports';
import { ROUTES, getHref } from '../../paths';
import { MSG } from '../../../shared/messages';
import { isValidId } from '../../../shared/codes';
import { P } from '../../../shared/permissions';
import { isSecondLine } from '../../../shared/schemas/alarm-reports';
import { ALARM_TEXT, EMPTY, headerName, nameOf } from './alarm-format';
import { AlarmMap } from './alarm-map';
import { AudioClip } from './audio-clip';
import { NoteDialog } from './note-dialog';
import { PRINT_TITLE, PrintableReport, usePrint } from './print-report';
import { registerAlarmAction, stepAlarm } from './alarm-events';
import { ANALYSIS_UI_TEXT, AnalysisSection } from './analysis-section';
import {
  ContactsSection,
  DevicesSection,
  InstructionsSection,
  JournalSection,
  MemosSection,
  NotesSection,
  SnapshotDate,
  SummarySection,
  TeamsSection,
  UserSection,
} from './report-sections';
import type { Call } from './detail-types';
import { HistoryPanel } from '../../ui/history-panel';
import './alarm-reports.css';
import { ActionButton } from '../../ui/action-button';
import { ActionCheckbox } from '../../ui/action-checkbox';

export function AlarmReportPage() {
  const { params, setTitle } = useTab();
  const alarmId = params.alarmId ?? '';
  const valid = isValidId(alarmId);
  const detail = useQuery(alarmReportDetailsQuery(alarmId));
  const d = detail.data;
  useEffect(() => {
    const p = d?.ProfileSnapshot.Person;
    setTitle(d ? `${ROUTES.alarmReport.title} ${headerName(p, d.AlarmIncomingCallPhoneNumber)}` : ROUTES.alarmReport.title);
  }, [d, setTitle]);

  if (!valid) return <PageMessage message={MSG.badUrl} />;
  if (detail.isPending) return <PageLoading />;
  if (detail.isError) return <PageMessage message={errorStatus(detail.error) === 404 ? 'Alarm report not found.' : errorMessage(detail.error)} />;
  return <AlarmReportView d={detail.data} />;
}

/** A call's recording from the line's endpoint (alarm line or second line). */
function fetchRecording(qc: QueryClient, c: Call, recordSId: string): Promise<Blob> {
  const p = { RecordSId: recordSId, ConferenceName: c.ConferenceName ?? '', Id: c.Id };
  return isSecondLine(c.Line) ? qc.fetchQuery(secondLineRecordingQuery(p)) : qc.fetchQuery(alarmLineRecordingQuery(p));
}

/** The person of the snapshot as the shared user details dialog reads it. */
function readView(d: AlarmReportDetails): PersonReadView {
  const p = d.ProfileSnapshot.Person;
  return {
    FirstName: p.FirstName,
    LastName: p.LastName,
    Title: p.Title,
    JobSector: p.JobSector,
    JobRole: p.JobRole,
    JobTitle: p.JobTitle,
    RiskProfiles: p.RiskProfiles,
    VehicleInformation: p.VehicleInformation,
    PersonalDetails: p.PersonalDetails,
    MedicalInformation: p.MedicalInformation,
    Ethnicity: p.Ethnicity,
    PhysicalInformation: p.PhysicalInformation,
    Contact: { EmailAddress: p.Contact.EmailAddress ?? '' } as PersonReadView['Contact'],
  };
}

function AlarmReportView({ d }: { d: AlarmReportDetails }) {
  const tab = useTab();
  const history = useRecordHistory('alarmReport', d.Id);
  const can = useCan();
  const qc = useQueryClient();
  const canEdit = can(P.AlarmReportAddNote);
  const canPrint = can(P.AlarmReportExport);
  const [noteOpen, setNoteOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const person = d.ProfileSnapshot.Person;
  const name = headerName(person, d.AlarmIncomingCallPhoneNumber);
  const company = nameOf(person.Company);

  // Others at work on this report: their notes appear at once, a change raises the reload bar.
  const others = useRecordLive('alarm-report', d.Id, { onNote: (e) => e.Note && addNoteToCache(qc, d.AlarmId, e.Note) });
  const reload = async () => {
    if (!(await mayReloadTab(tab.tabId))) return;
    others.clear();
    void qc.invalidateQueries({ queryKey: adminKeys.audit() });
    await Promise.all([qc.refetchQueries({ queryKey: alarmReportKeys.detail(d.AlarmId) }), qc.refetchQueries({ queryKey: alarmReportKeys.analysis(d.Id) })]);
  };

  const escalation = useMutation({
    mutationFn: (followed: boolean) =>
      updateEscalationPlanFollowed({ alarmReportId: d.Id, alarmId: d.AlarmId, escalationPlanFollowed: followed, etag: d.Etag }),
    onSuccess: (r) => {
      patchEscalationInCache(qc, d.AlarmId, r);
      void qc.invalidateQueries({ queryKey: alarmReportKeys.lists() });
      toast.success(MSG.escalationUpdated);
    },
    onError: (err) => {
      toast.error(errorMessage(err));
      // A stale version (409): load the current one so the next tick works.
      if (errorStatus(err) === 409) void qc.invalidateQueries({ queryKey: alarmReportKeys.detail(d.AlarmId) });
    },
  });

  // Alarm report intelligence: the stored Analysis, shown only when it is on for the customer.
  const analysisQuery = useQuery(alarmReportAnalysisQuery(d.Id));
  const intelligence = analysisQuery.data?.Enabled === true ? analysisQuery.data : null;
  const generate = useMutation({
    mutationFn: () => generateAlarmReportAnalysis({ alarmReportId: d.Id }),
    onSuccess: (r) => {
      qc.setQueryData(alarmReportKeys.analysis(d.Id), r);
      toast.success(ANALYSIS_UI_TEXT.generated);
    },
    onError: (err) => toast.error(errorMessage(err)),
  });

  const { printRef, printing, print } = usePrint(`${PRINT_TITLE} ${name === EMPTY ? d.AlarmId : name}`);

  // Commands (print, add note, toggle escalation) reach this tab through the registrations.
  const live = useRef({ print, canEdit, canPrint, d, escalation, navigate: tab.navigate });
  live.current = { print, canEdit, canPrint, d, escalation, navigate: tab.navigate };
  const step = async (delta: 1 | -1) => {
    const next = await stepAlarm(live.current.d.AlarmId, delta).catch(() => null);
    if (next) live.current.navigate(getHref('alarmReport', { alarmId: next }));
    else toast.info(delta > 0 ? 'This is the last report of the list.' : 'This is the first report of the list.');
  };
  useEffect(() => {
    const offs = [
      registerAlarmAction(tab.tabId, 'print', () => live.current.canPrint && live.current.print()),
      registerAlarmAction(tab.tabId, 'addNote', () => live.current.canEdit && setNoteOpen(true)),
      registerAlarmAction(tab.tabId, 'toggleEscalation', () => {
        const s = live.current;
        if (s.canEdit && !s.escalation.isPending) s.escalation.mutate(!s.d.EscalationPlanFollowed);
      }),
      registerAlarmAction(tab.tabId, 'next', () => void step(1)),
      registerAlarmAction(tab.tabId, 'prev', () => void step(-1)),
    ];
    return () => offs.forEach((off) => off());
  }, [tab.tabId]);

  const escalationBox = (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <ActionCheckbox checked={d.EscalationPlanFollowed} readOnly={!canEdit} busy={escalation.isPending} onCheckedChange={(on) => escalation.mutate(on)} />
        {ALARM_TEXT.escalationFollowed}
      </Flex>
    </Text>
  );

  return (
    <div className="ar-detail">
      <header className="ar-detail__header">
        <div>
          <Text as="p" size="1" color="gray">
            {ROUTES.alarmReport.title}
          </Text>
          <Heading as="h1" size="5">
            {name}
          </Heading>
          {company !== EMPTY && (
            <Text as="p" size="2" color="gray">
              {company}
            </Text>
          )}
        </div>
        <Flex gap="2" align="center" wrap="wrap">
          {canEdit && (
            <Button variant="soft" onClick={() => setNoteOpen(true)}>
              {ALARM_TEXT.addNote}
            </Button>
          )}
          {canPrint && (
            <ActionButton onClick={() => print()} busy={printing}>
              {ALARM_TEXT.exportPdf}
            </ActionButton>
          )}
        </Flex>
      </header>
      <RecordLiveBar changedBy={others.changedBy} present={others.present} onReload={() => void reload()} />

      <SummarySection d={d} escalation={escalationBox} map={<AlarmMap location={d.Location} />} />
      <SnapshotDate d={d} />
      <InstructionsSection d={d} />
      <UserSection
        d={d}
        fullProfile={
          <Button variant="ghost" size="1" mt="2" onClick={() => setProfileOpen(true)}>
            {ALARM_TEXT.fullProfile}
          </Button>
        }
      />
      <MemosSection
        d={d}
        voiceMemo={(m) => (
          <AudioClip
            label={`voice memo ${nameOf(m.DisplayName)}`}
            fetchBlob={(qc) => qc.fetchQuery(voiceMemoQuery({ PersonId: person.Id, MemoId: m.VoiceMemoId ?? '' }))}
            fileName={`voice-memo-${m.VoiceMemoId}.wav`}
            failedMessage={MSG.voiceMemoFailed}
          />
        )}
      />
      <DevicesSection d={d} />
      <TeamsSection d={d} />
      <ContactsSection d={d} />
      <JournalSection
        d={d}
        recording={(c) =>
          c.Records.length > 0 && (
            <Flex direction="column" gap="1" mt="1">
              {c.Records.map((r, i) => (
                <AudioClip
                  key={r.SId}
                  label={`recording ${i + 1} of the ${c.Line} call`}
                  fetchBlob={(qc) => fetchRecording(qc, c, r.SId)}
                  fileName={`call-recording-${r.SId}.wav`}
                  failedMessage={MSG.callRecordingFailed}
                  unavailableReason={r.Unavailable ? (r.Reason ?? MSG.callRecordingFailed) : null}
                  onDownloaded={async () => {
                    try {
                      await logCallDownload({ alarmReportId: d.Id, callId: c.Id, alarmId: d.AlarmId });
                      toast.success(MSG.recordingDownloaded);
                    } catch (err) {
                      toast.error(errorMessage(err));
                    }
                  }}
                />
              ))}
            </Flex>
          )
        }
      />
      <NotesSection d={d} />
      {intelligence && (
        <AnalysisSection
          analysis={intelligence.Analysis}
          action={
            canEdit && (
              <ActionButton variant="soft" size="1" mb="2" onClick={() => generate.mutate()} busy={generate.isPending}>
                {intelligence.Analysis ? ANALYSIS_UI_TEXT.regenerate : ANALYSIS_UI_TEXT.generate}
              </ActionButton>
            )
          }
        />
      )}
      <HistoryPanel history={history} />

      <NoteDialog open={noteOpen} onClose={() => setNoteOpen(false)} alarmReportId={d.Id} alarmId={d.AlarmId} />
      <PersonDetailsDialog open={profileOpen} onClose={() => setProfileOpen(false)} title={personTitle(person)}>
        <PersonDetails person={readView(d)} />
      </PersonDetailsDialog>

      {/* The print source: never shown on screen; react-to-print copies it into its print frame. */}
      {canPrint && (
        <div className="ar-print-source" hidden>
          <PrintableReport d={d} ref={printRef} analysis={intelligence ? intelligence.Analysis : undefined} />
        </div>
      )}
    </div>
  );
}
