// The one serial number format. A device serial is its type's prefix followed by digits (7; 8 for
// Identicom): 'SG6211831997', 'SC0000001'. Demo data makes serials this way; a scanner burst outside
// Bulk Update is checked against it before it is offered as a serial, so a burst the browser split
// ('0174609', 'G6211831997') is shown as doubtful, never offered.

/** Serial prefixes per device type; the rest is SERIAL_DIGITS digits, unique per type. */
export const SERIAL_PREFIX: Record<number, string> = {
  3: 'SMP',
  10: 'ID',
  15: 'EV07',
  20: 'TWX',
  30: 'T4',
  42: 'BG42',
  52: 'BG52',
  60: 'SC',
  70: 'ESIM',
  140: 'B140',
  370: 'MG37',
  400: 'GIM2',
  620: 'SG620',
  621: 'SG621',
  640: 'SG640',
  740: 'SG740',
  750: 'SG750',
  803: 'SPT3',
  804: 'SPT4',
  810: 'SPTX',
};
/** How many digits follow a type's prefix. */
export const serialDigits = (type: number) => (type === 10 ? 8 : 7);

const FORMAT = new RegExp(
  `^(?:${Object.entries(SERIAL_PREFIX)
    .map(([type, prefix]) => `${prefix}\\d{${serialDigits(Number(type))}}`)
    .join('|')})$`,
  'i',
);

/** Whether a scanned or typed text has the serial number format (case and surrounding spaces ignored). */
export const isSerialFormat = (text: string) => FORMAT.test(text.trim());
