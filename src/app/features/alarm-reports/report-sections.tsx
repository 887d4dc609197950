// The sections of a Closed Alarm Report (spec §2, §3, §4), shared by the detail tab and the
// printable report. Each section applies the display rules of alarm-format.ts; the interactive
// parts (escalation checkbox, Full Profile, players) come in as render props so the printable
// report can leave them out. Collapsible sections are <details open>: they start expanded.
import type { ReactNode } from 'react';
import { MSG } from '../../../shared/messages';
import { formatPhone as formatSharedPhone } from '../../../shared/phone';
import {
  ALARM_TEXT,
  EMPTY,
  callDuration,
  dash,
  formatAddressLines,
  formatBattery,
  formatCoordinates,
  formatDateTime,
  formatJournalProperties,
  formatPhone,
  hasItems,
  nameOf,
  noteAuthorRoles,
  serviceFlags,
  showDuressWords,
  showInstructionsPanel,
  showVehicle,
  sortEscalationPlans,
} from './alarm-format';
import type { Call, Detail, Memo } from './detail-types';
import { TableHead } from '../../ui/table-head';

export function Section({ id, title, children, collapsible = true }: { id: string; title: string; children: ReactNode; collapsible?: boolean }) {
  if (!collapsible)
    return (
      <section className="ar-section" aria-labelledby={`ar-${id}`} data-section={id}>
        <h2 id={`ar-${id}`} className="ar-section__title">
          {title}
        </h2>
        <div className="ar-section__body">{children}</div>
      </section>
    );
  return (
    <details open className="ar-section" data-section={id}>
      <summary className="ar-section__title">
        <h2 id={`ar-${id}`}>{title}</h2>
      </summary>
      <div className="ar-section__body" role="region" aria-labelledby={`ar-${id}`}>
        {children}
      </div>
    </details>
  );
}

export function Fields({ children }: { children: ReactNode }) {
  return <dl className="ar-fields">{children}</dl>;
}
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="ar-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const person = (d: Detail) => d.ProfileSnapshot?.Person;

/** Alarm summary (spec §3 "Alarm summary (report)"), with the location and whatever `escalation` renders. */
export function SummarySection({ d, escalation, map, collapsible }: { d: Detail; escalation: ReactNode; map?: ReactNode; collapsible?: boolean }) {
  const loc = d.Location;
  return (
    <Section id="summary" title="Alarm details" collapsible={collapsible}>
      <div className="ar-summary">
        <Fields>
          <Field label="Device">{[nameOf(d.AlarmDevice?.Type), d.AlarmDevice?.Serial].filter((x) => x && x !== EMPTY).join(' · ') || EMPTY}</Field>
          <Field label="Alarm ID">{dash(d.AlarmId)}</Field>
          <Field label="Alarm type">{nameOf(d.AlarmType)}</Field>
          <Field label="Alarm started">{formatDateTime(d.AlarmStared)}</Field>
          <Field label="Alarm closed">{formatDateTime(d.AlarmClosed)}</Field>
          <Field label="Verification type">{nameOf(d.VerificationType)}</Field>
          <Field label="Verification category">{nameOf(d.VerificationCategory)}</Field>
          <Field label="Incoming call">{formatSharedPhone(d.AlarmIncomingCallPhoneNumber)}</Field>
          <Field label="Address">{dash(loc?.GoogleApiAddress)}</Field>
          <Field label="what3words">{loc?.W3WAddress ? `///${loc.W3WAddress.replace(/^\/+/, '')}` : EMPTY}</Field>
          <Field label="Coordinates">
            {formatCoordinates(loc?.Latitude, loc?.Longitude)}
            {loc?.GpsGenerated === true ? ' (GPS)' : loc?.GpsGenerated === false ? ' (network)' : ''}
          </Field>
          <Field label={ALARM_TEXT.escalationQuestion}>{escalation}</Field>
        </Fields>
        {map && <div className="ar-summary__map">{map}</div>}
      </div>
    </Section>
  );
}

export function SnapshotDate({ d }: { d: Detail }) {
  return (
    <p className="ar-snapshot" data-section="snapshot">
      Profile snapshot taken <strong>{formatDateTime(d.ProfileSnapshot?.SnapshotDate)}</strong>
    </p>
  );
}

/** Alarm instructions and medical info; absent when the §4 rule says there is nothing to show. */
export function InstructionsSection({ d, collapsible }: { d: Detail; collapsible?: boolean }) {
  const snap = d.ProfileSnapshot;
  const p = person(d);
  const instruction = snap?.PrimaryTeamAlarmInstruction;
  const medical = p?.MedicalInformation;
  if (!showInstructionsPanel({ instruction, medical, riskProfiles: p?.RiskProfiles, company: p?.Company })) return null;
  const special = instruction?.SpecialInstructions ?? [];
  const conditions = (medical?.MedicalConditions ?? []).map((m) => m.Name).filter(Boolean);
  const risks = (p?.RiskProfiles ?? []).map((r) => r.Name).filter(Boolean);
  const flags = serviceFlags(p?.Company);
  return (
    <Section id="instructions" title="Alarm instructions and medical information" collapsible={collapsible}>
      <Fields>
        {special.length > 0 && (
          <Field label="Special instructions">
            <ul className="ar-list">
              {special.map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ul>
          </Field>
        )}
        {showDuressWords(instruction) && (
          <>
            <Field label="Duress word: monitor">{dash(instruction?.DuressWords?.Monitor)}</Field>
            <Field label="Duress word: call police">{dash(instruction?.DuressWords?.CallPolice)}</Field>
          </>
        )}
        {medical?.HearingImpairment === true && (
          <Field label="Hearing impairment">{dash(medical.HearingImpairmentLevel) === EMPTY ? 'Yes' : dash(medical.HearingImpairmentLevel)}</Field>
        )}
        {conditions.length > 0 && <Field label="Medical conditions">{conditions.join(', ')}</Field>}
        {risks.length > 0 && <Field label="Risk profiles">{risks.join(', ')}</Field>}
        {flags.length > 0 && <Field label="Services">{flags.join(', ')}</Field>}
      </Fields>
    </Section>
  );
}

export function UserSection({ d, fullProfile, collapsible }: { d: Detail; fullProfile?: ReactNode; collapsible?: boolean }) {
  const p = person(d);
  const v = p?.VehicleInformation;
  return (
    <Section id="user" title="User information" collapsible={collapsible}>
      <Fields>
        <Field label="Name">{dash(`${p?.FirstName ?? ''} ${p?.LastName ?? ''}`.trim())}</Field>
        <Field label="Company">{nameOf(p?.Company)}</Field>
        <Field label="Work phone">{formatPhone(p?.Contact?.WorkPhoneNumber)}</Field>
        <Field label="Personal phone">{formatPhone(p?.Contact?.PersonalPhoneNumber)}</Field>
        <Field label="Work address">{formatAddressLines(p?.PersonalDetails?.WorkAddress)}</Field>
        <Field label="Home address">{formatAddressLines(p?.PersonalDetails?.HomeAddress)}</Field>
        <Field label="Job sector">{nameOf(p?.JobSector)}</Field>
        <Field label="Job role">{nameOf(p?.JobRole)}</Field>
        <Field label="Job title">{dash(p?.JobTitle)}</Field>
        {showVehicle(v) && (
          <Field label="Vehicle">{[v?.VehicleRegistration, nameOf(v?.Make), v?.Model, nameOf(v?.Color)].map((x) => dash(x)).join(' · ')}</Field>
        )}
      </Fields>
      {fullProfile}
    </Section>
  );
}

export function MemosSection({ d, voiceMemo, collapsible }: { d: Detail; voiceMemo?: (m: Memo) => ReactNode; collapsible?: boolean }) {
  const memos = d.ProfileSnapshot?.MemosAndActivities?.ActivitiesWithMemos ?? [];
  if (!hasItems(memos)) return null;
  return (
    <Section id="memos" title="Memos and activities" collapsible={collapsible}>
      <ul className="ar-items">
        {memos.map((m) => (
          <li key={m.Id} className="ar-item">
            <div className="ar-item__head">
              <strong>{nameOf(m.DisplayName)}</strong>
              <span>{formatDateTime(m.StartDate)}</span>
              <span>{m.DurationInMinutes != null ? `${m.DurationInMinutes} min` : EMPTY}</span>
            </div>
            {m.TextMemo && <p className="ar-item__text">{m.TextMemo}</p>}
            {m.VoiceMemoId && voiceMemo?.(m)}
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function DevicesSection({ d, collapsible }: { d: Detail; collapsible?: boolean }) {
  const devices = d.ProfileSnapshot?.Devices;
  if (!hasItems(devices)) return null;
  return (
    <Section id="devices" title="Device details" collapsible={collapsible}>
      <table className="ar-table">
        <TableHead columns={['Type', 'Serial', 'Phone number', 'Last known battery']} />
        <tbody>
          {devices!.map((x, i) => (
            <tr key={x.Id ?? i}>
              <td>{nameOf(x.Type)}</td>
              <td>{dash(x.Serial)}</td>
              <td>{formatSharedPhone(x.PhoneNumber)}</td>
              <td>
                {formatBattery(x.LastKnownBattery, x.Type?.Value) === ALARM_TEXT.batteryNotApplicable ? (
                  // Reachable by keyboard so the reason is not hover-only.
                  <span
                    className="ar-na"
                    tabIndex={0}
                    title={ALARM_TEXT.batteryNotSupported}
                    aria-label={`${ALARM_TEXT.batteryNotApplicable}: ${ALARM_TEXT.batteryNotSupported}`}
                  >
                    {ALARM_TEXT.batteryNotApplicable}
                  </span>
                ) : (
                  formatBattery(x.LastKnownBattery, x.Type?.Value)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function TeamsSection({ d, collapsible }: { d: Detail; collapsible?: boolean }) {
  const teams = sortEscalationPlans(d.ProfileSnapshot?.TeamWithEscalationPlan);
  if (!hasItems(teams)) return null;
  return (
    <Section id="teams" title="Teams with escalation plan" collapsible={collapsible}>
      <ol className="ar-items">
        {teams.map((t, i) => (
          <li key={i} className="ar-item" data-testid="escalation-plan">
            <div className="ar-item__head">
              <strong>{dash(t.Team?.Name)}</strong>
              {t.Team?.PrimaryGroup && <span className="ar-badge">Primary team</span>}
              <span>{dash(t.EscalationPlan?.Name)}</span>
              {t.DefaultEscalationPlan && <span className="ar-badge">Default plan</span>}
            </div>
            <ol className="ar-list">
              {(t.EscalationPlan?.Instructions ?? []).map((ins, k) => (
                <li key={k}>
                  {dash(ins.Instruction)}
                  {ins.Contact?.InstructionContactName && (
                    <span className="ar-muted">
                      {' '}
                      — {ins.Contact.InstructionContactName} {formatPhone({ CountryCode: ins.Contact.CountryCode, Number: ins.Contact.Value })}
                    </span>
                  )}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </Section>
  );
}

export function ContactsSection({ d, collapsible }: { d: Detail; collapsible?: boolean }) {
  const contacts = person(d)?.EmergencyContacts;
  if (!hasItems(contacts)) return null;
  return (
    <Section id="contacts" title="Emergency contacts" collapsible={collapsible}>
      <table className="ar-table">
        <TableHead columns={['Name', 'Relationship', 'Phone number']} />
        <tbody>
          {contacts!.map((c, i) => (
            <tr key={i}>
              <td>{dash(`${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim())}</td>
              <td>{dash(c.Relationship)}</td>
              <td>{formatPhone(c.PhoneNumber)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function CallItem({ call, player }: { call: Call; player?: ReactNode }) {
  const who = (call.CallParticipants ?? [])
    .map((p) => p.FullName)
    .filter(Boolean)
    .join(', ');
  return (
    <li className="ar-item ar-call" data-testid="call">
      <div className="ar-item__head">
        <strong>{dash(call.Line)}</strong>
        {call.AlarmCall && <span className="ar-badge">Alarm call</span>}
        <span>{formatDateTime(call.StartTime)}</span>
        <span className={call.Duration ? undefined : 'ar-failed'}>{callDuration(call.Duration)}</span>
      </div>
      <div className="ar-muted">
        {formatSharedPhone(call.Number)}
        {who ? ` · ${who}` : ''}
      </div>
      {player}
    </li>
  );
}

export function JournalSection({ d, recording, collapsible }: { d: Detail; recording?: (c: Call) => ReactNode; collapsible?: boolean }) {
  const calls = d.Calls ?? [];
  const logs = d.ActivityJournal?.Activities ?? [];
  return (
    <Section id="journal" title="Activity journal" collapsible={collapsible}>
      <h3 className="ar-subtitle">Calls</h3>
      {calls.length ? (
        <ul className="ar-items">
          {calls.map((c) => (
            <CallItem key={c.Id} call={c} player={recording?.(c)} />
          ))}
        </ul>
      ) : (
        <p className="ar-muted">{MSG.noResultsFound}</p>
      )}
      <h3 className="ar-subtitle">Activity log</h3>
      {logs.length ? (
        <table className="ar-table ar-journal">
          <TableHead columns={['Date/time', 'Created by', 'Details', 'Notes']} />
          <tbody>
            {logs.map((e, i) => (
              <tr key={i} className="ar-journal__entry">
                <td>{formatDateTime(e.Date)}</td>
                <td>{dash(e.Creator)}</td>
                <td>{dash(e.Details)}</td>
                <td>
                  {formatJournalProperties(e.CustomProperties).map((l) => (
                    <div key={l.label}>
                      <span className="ar-muted">{l.label}:</span> {l.value}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="ar-muted">{MSG.noResultsFound}</p>
      )}
    </Section>
  );
}

export function NotesSection({
  d,
  action,
  title = 'Additional notes',
  collapsible,
  showRoles,
}: {
  d: Detail;
  action?: ReactNode;
  title?: string;
  collapsible?: boolean;
  /** The printable report lists the author's roles after the label. */
  showRoles?: boolean;
}) {
  const notes = [...(d.ActivityJournal?.AdditionalNoteList ?? [])].sort((a, b) => (a.CreatedDate ?? '').localeCompare(b.CreatedDate ?? ''));
  return (
    <Section id="notes" title={title} collapsible={collapsible}>
      {action}
      {notes.length ? (
        <ul className="ar-items" aria-label="Notes">
          {notes.map((n) => (
            <li key={n.Id} className="ar-item ar-note" data-testid="note">
              <div className="ar-item__head">
                {showRoles ? (
                  // Printed (spec: author name, author roles): the author once, roles beside the name.
                  <span>
                    Author: <strong>{dash(n.Person?.FullName)}</strong> ({(n.Person?.Roles ?? []).join(', ') || noteAuthorRoles(n.Person?.Roles)})
                  </span>
                ) : (
                  <>
                    <strong>{dash(n.Person?.FullName)}</strong>
                    <span className="ar-badge" data-testid="note-author-role">
                      {noteAuthorRoles(n.Person?.Roles)}
                    </span>
                  </>
                )}
                <span>{formatDateTime(n.CreatedDate)}</span>
              </div>
              <p className="ar-item__text">{n.Note}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="ar-muted">{MSG.noResultsFound}</p>
      )}
    </Section>
  );
}
