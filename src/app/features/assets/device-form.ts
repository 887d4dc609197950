// The device basic-information form (spec document 2 §2 "Device detail page", §3 update payload,
// §5 "Device basic form"): editable Supplier, SIM type, SIM serial number, Phone number, IMSI.
// Supplier is required; SIM type, SIM serial and phone number are required unless the device
// type is SIM-exempt (the contract's list); IMSI is optional. Only changed fields are sent.
import * as v from 'valibot';
import { DEVICE_TEXT, SIM_EXEMPT_TYPES, TEXT_MAX } from '../../../shared/schemas/devices';
import { normalisePhone, phoneError, phoneForInput, phoneMessage } from '../../../shared/phone';
import type { DeviceDto, DeviceGeneralDetails } from '../../api/devices';

export const DEVICE_TEXTS = {
  saveQuestion: 'Are you sure you want to save your changes?',
  discardQuestion: 'Are you sure you want to discard your changes?',
} as const;

export type DeviceFormValues = { supplier: string; simTypeId: string; simSerial: string; phoneNumber: string; imsi: string };

export const isSimExempt = (typeValue: number) => SIM_EXEMPT_TYPES.includes(typeValue);

export function deviceFormValues(d: DeviceDto): DeviceFormValues {
  return {
    supplier: d.supplier ?? '',
    simTypeId: d.simTypeId === null || d.simTypeId === undefined ? '' : String(d.simTypeId),
    simSerial: d.simSerial ?? '',
    phoneNumber: phoneForInput(d.phoneNumber),
    imsi: d.imsi ?? '',
  };
}

const text = (required: string | null) =>
  required
    ? v.pipe(v.string(), v.trim(), v.nonEmpty(required), v.maxLength(TEXT_MAX, DEVICE_TEXT.tooLong))
    : v.pipe(v.string(), v.trim(), v.maxLength(TEXT_MAX, DEVICE_TEXT.tooLong));

export function deviceFormSchema(typeValue: number) {
  const exempt = isSimExempt(typeValue);
  return v.object({
    supplier: text(DEVICE_TEXT.supplierRequired),
    simTypeId: exempt ? v.string() : v.pipe(v.string(), v.nonEmpty(DEVICE_TEXT.simTypeRequired)),
    simSerial: text(exempt ? null : DEVICE_TEXT.simSerialRequired),
    // A SIM's number is read in the provider's country (GB), as the import reads it.
    phoneNumber: v.pipe(
      text(exempt ? null : DEVICE_TEXT.phoneRequired),
      v.check((s) => !phoneError(s), phoneMessage()),
    ),
    imsi: text(null),
  });
}

/**
 * The generalDetails to send: only fields whose value differs from the stored one (spec §3:
 * optional fields are sent only when set); a cleared text field is sent as '' (the contract's optionalText reads null as "keep").
 */
export function changedDetails(before: DeviceFormValues, values: DeviceFormValues): DeviceGeneralDetails {
  const out: DeviceGeneralDetails = {};
  const t = (s: string) => s.trim();
  if (t(values.supplier) !== t(before.supplier)) out.supplier = t(values.supplier);
  if (values.simTypeId !== before.simTypeId) out.simTypeId = values.simTypeId === '' ? null : Number(values.simTypeId);
  if (t(values.simSerial) !== t(before.simSerial)) out.simSerial = t(values.simSerial);
  if (t(values.phoneNumber) !== t(before.phoneNumber)) out.phoneNumber = normalisePhone(values.phoneNumber) ?? t(values.phoneNumber);
  if (t(values.imsi) !== t(before.imsi)) out.imsi = t(values.imsi);
  return out;
}
