// The person read view (spec document 1 §3 "Person read view (profile dialog)", document 3 §3
// "Full person profile"): a modal dialog titled with the person's name (or 'User Details') with two
// sections, personal information and physical and medical information; empty values show '-'.
// Shared by the persons area (read view of /persons/edit/{id}) and the alarm report's 'Full Profile'.
import type { ReactNode } from 'react';
import { differenceInYears, format, isValid, parseISO } from 'date-fns';
import { Button, Flex, Heading } from '@radix-ui/themes';
import { Dialog } from './dialog';
import { DialogCloseButton } from '../shell/dialog-close-button';
import type { PersonRecord as Person } from '../../shared/schemas/persons';
import { DATE_FORMAT } from '../../shared/dates';
import './person-details.css';

export const DETAILS_TEXT = {
  fallbackTitle: 'User Details',
  personal: 'Personal information',
  physical: 'Physical and medical information',
  close: 'Close',
  empty: '-',
  loading: 'Loading…',
} as const;

type Option = { Id?: number | string; Name?: string | null } | null | undefined;
type Address = { AddressLine1?: string | null; AddressLine2?: string | null; PostCode?: string | null; Country?: Option } | null | undefined;

/** The read view's fields (spec §3); the server sends those it holds, the rest show '-'. */
export type PersonReadView = Partial<Person> & {
  Title?: Option;
  JobSector?: Option;
  JobRole?: Option;
  JobTitle?: string | null;
  RiskProfiles?: Option[] | null;
  VehicleInformation?: {
    VehicleOwnedOrUsed?: boolean | null;
    VehicleRegistration?: string | null;
    Color?: Option;
    Make?: Option;
    Model?: string | null;
  } | null;
  PersonalDetails?: { DateOfBirth?: string | null; Gender?: Option; HomeAddress?: Address; WorkAddress?: Address } | null;
  MedicalInformation?: { HearingImpairmentLevel?: string | null; BloodType?: Option } | null;
  Ethnicity?: Option;
  PhysicalInformation?: {
    Height?: { Unit?: string | null; CentimeterValue?: number | null; FeetValue?: number | null; InchValue?: number | null } | null;
    HairColor?: Option;
    EyeColor?: Option;
    DistinguishingFeatures?: { Id?: number | string; Name?: string | null; AdditionalInformation?: string | null }[] | null;
  } | null;
};

const text = (v: unknown): string => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : DETAILS_TEXT.empty);
const name = (o: Option) => text(o?.Name);

export function personTitle(p: Pick<PersonReadView, 'FirstName' | 'LastName'> | undefined): string {
  const full = `${p?.FirstName ?? ''} ${p?.LastName ?? ''}`.trim();
  return full || DETAILS_TEXT.fallbackTitle;
}

/** 'DD/MM/YYYY (age N)' — the age in whole years on `now`. */
export function formatDateOfBirth(value: string | null | undefined, now = new Date()): string {
  if (!value) return DETAILS_TEXT.empty;
  const d = parseISO(value);
  if (!isValid(d)) return DETAILS_TEXT.empty;
  return `${format(d, DATE_FORMAT)} (age ${differenceInYears(now, d)})`;
}

/** Height in the person's unit: '178 centimeters' or '5 ft 10 in'. */
export function formatHeight(h: NonNullable<PersonReadView['PhysicalInformation']>['Height']): string {
  if (!h) return DETAILS_TEXT.empty;
  if (h.Unit === 'centimeters') return h.CentimeterValue ? `${h.CentimeterValue} centimeters` : DETAILS_TEXT.empty;
  if (h.FeetValue == null && h.InchValue == null) return h.CentimeterValue ? `${h.CentimeterValue} centimeters` : DETAILS_TEXT.empty;
  return `${h.FeetValue ?? 0} ft ${h.InchValue ?? 0} in`;
}

export function formatAddress(a: Address): string {
  if (!a) return DETAILS_TEXT.empty;
  const parts = [a.AddressLine1, a.AddressLine2, a.PostCode, a.Country?.Name].map((x) => (typeof x === 'string' ? x.trim() : '')).filter(Boolean);
  return parts.length ? parts.join(', ') : DETAILS_TEXT.empty;
}

function yesNo(v: boolean | null | undefined) {
  return v === true ? 'Yes' : v === false ? 'No' : DETAILS_TEXT.empty;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="person-details-label">{label}</dt>
      <dd className="person-details-value">{children}</dd>
    </>
  );
}

/** The two sections of the read view. */
export function PersonDetails({ person, now }: { person: PersonReadView; now?: Date }) {
  const v = person.VehicleInformation;
  const pd = person.PersonalDetails;
  const med = person.MedicalInformation;
  const phys = person.PhysicalInformation;
  const risks = (person.RiskProfiles ?? []).map((r) => r?.Name).filter((x): x is string => !!x);
  const features = phys?.DistinguishingFeatures ?? [];
  return (
    <div className="person-details">
      <section aria-labelledby="person-details-personal">
        <Heading as="h3" size="3" id="person-details-personal" mb="2">
          {DETAILS_TEXT.personal}
        </Heading>
        <dl className="person-details-list">
          <Row label="Title">{name(person.Title)}</Row>
          <Row label="First name">{text(person.FirstName)}</Row>
          <Row label="Last name">{text(person.LastName)}</Row>
          <Row label="Email">{text(person.Contact?.EmailAddress)}</Row>
          <Row label="Job sector">{name(person.JobSector)}</Row>
          <Row label="Job role">{name(person.JobRole)}</Row>
          <Row label="Job title">{text(person.JobTitle)}</Row>
          <Row label="Risk profiles">{risks.length ? risks.join(', ') : DETAILS_TEXT.empty}</Row>
          <Row label="Date of birth">{formatDateOfBirth(pd?.DateOfBirth, now)}</Row>
          <Row label="Sex assigned at birth">{name(pd?.Gender)}</Row>
          <Row label="Ethnicity">{name(person.Ethnicity)}</Row>
          <Row label="Home address">{formatAddress(pd?.HomeAddress)}</Row>
          <Row label="Work address">{formatAddress(pd?.WorkAddress)}</Row>
          <Row label="Vehicle owned or used">{yesNo(v?.VehicleOwnedOrUsed)}</Row>
          <Row label="Vehicle registration">{text(v?.VehicleRegistration)}</Row>
          <Row label="Vehicle colour">{name(v?.Color)}</Row>
          <Row label="Vehicle make">{name(v?.Make)}</Row>
          <Row label="Vehicle model">{text(v?.Model)}</Row>
        </dl>
      </section>
      <section aria-labelledby="person-details-physical">
        <Heading as="h3" size="3" id="person-details-physical" mb="2">
          {DETAILS_TEXT.physical}
        </Heading>
        <dl className="person-details-list">
          <Row label="Height">{formatHeight(phys?.Height)}</Row>
          <Row label="Hair colour">{name(phys?.HairColor)}</Row>
          <Row label="Eye colour">{name(phys?.EyeColor)}</Row>
          <Row label="Distinguishing features">
            {features.length ? (
              <ul className="person-details-features">
                {features.map((f, i) => (
                  <li key={f.Id ?? i}>
                    {text(f.Name)}
                    {f.AdditionalInformation ? `: ${f.AdditionalInformation}` : ''}
                  </li>
                ))}
              </ul>
            ) : (
              DETAILS_TEXT.empty
            )}
          </Row>
          <Row label="Hearing impairment">{text(med?.HearingImpairmentLevel)}</Row>
          <Row label="Blood type">{name(med?.BloodType)}</Row>
        </dl>
      </section>
    </div>
  );
}

/** The dialog itself (spec shared widget: modal, width 60rem, close button). */
export function PersonDetailsDialog({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="60rem" aria-describedby={undefined} className="person-details-dialog">
        <Dialog.Title mb="3">{title}</Dialog.Title>
        <DialogCloseButton label={DETAILS_TEXT.close} />
        {children}
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              {DETAILS_TEXT.close}
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
