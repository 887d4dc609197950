/** Window event: the bulk page focuses its serial field (the "add serial to bulk list" command). */
export const BULK_FOCUS_EVENT = 'bulk:focus-serial';
