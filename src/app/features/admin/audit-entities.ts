// The entity kinds the server writes audit entries for: the Audit Trail's Entity filter. What each
// entry's record is, and the route that opens it, come with the entry (RecordLabel, RecordHref).

/** The entity kinds the audit trail filter offers. */
export const AUDIT_ENTITIES = ['customer', 'device', 'person', 'alarmReport', 'schedule', 'feature', 'globalSetting', 'ssoDomain'] as const;
