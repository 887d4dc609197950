// Alarm report intelligence endpoints (ours; docs/alarm-intelligence.md): the stored Analysis
// section of a closed alarm report. The rules are in src/shared/alarm-intelligence.ts.
//
// - GET /alarm-report/get-analysis?AlarmReportId= (View) → { Enabled, Analysis }. Enabled is false
//   when the feature EnableAlarmReportIntelligence or the customer's 'Alarm Report Intelligence'
//   setting is off; Analysis is then null even if one was stored. Analysis is null too until one is
//   generated. 404 for an unknown report.
// - POST /alarm-report/generate-analysis { alarmReportId } (AddNote) → the same answer with the
//   analysis just generated and stored (replacing the stored one). 403 'feature_disabled' when
//   intelligence is off for the report; 404 for an unknown report.
import * as v from 'valibot';
import { guid } from './common.js';
import { ALARM_TEXT } from './alarm-reports.js';

export const INTELLIGENCE_TEXT = {
  disabled: 'Alarm report intelligence is not enabled for this customer.',
} as const;
export const INTELLIGENCE_CODE = { disabled: 'feature_disabled' } as const;

/** GET /alarm-report/get-analysis?AlarmReportId= */
export const analysisQuery = v.object({ AlarmReportId: guid(ALARM_TEXT.invalidId) });
/** POST /alarm-report/generate-analysis { alarmReportId } */
export const generateAnalysisBody = v.object({ alarmReportId: guid(ALARM_TEXT.invalidId) }, ALARM_TEXT.badBody);
export type GenerateAnalysisBody = v.InferInput<typeof generateAnalysisBody>;

const step = v.strictObject({
  Step: v.picklist(['Raised', 'Verification started', 'Verification completed', 'Closed']),
  At: v.string(),
  Seconds: v.number(),
  SincePrevious: v.number(),
  Band: v.nullable(v.string()),
  WithinTarget: v.nullable(v.boolean()),
});
const instructionCheck = v.strictObject({
  Instruction: v.string(),
  ContactName: v.string(),
  Number: v.string(),
  Outcome: v.picklist(['Answered', 'Call failed', 'Not called']),
  CalledAt: v.nullable(v.string()),
  Calls: v.number(),
});
export const alarmAnalysisSchema = v.strictObject({
  Timeline: v.array(step),
  PlanCheck: v.nullable(
    v.strictObject({
      TeamName: v.string(),
      PlanName: v.string(),
      Instructions: v.array(instructionCheck),
      Followed: v.boolean(),
      Ticked: v.boolean(),
      Verdict: v.picklist(['Agrees', 'Questions']),
    }),
  ),
  Anomalies: v.array(
    v.strictObject({
      Kind: v.picklist(['failedCall', 'recordingUnavailable', 'noNotesOnRealIncident', 'duressWordsActive', 'verificationOutsideTarget']),
      Text: v.string(),
    }),
  ),
  Summary: v.string(),
});

/** The answer of both routes. */
export const analysisResponseSchema = v.strictObject({
  Enabled: v.boolean(),
  Analysis: v.nullable(v.strictObject({ ...alarmAnalysisSchema.entries, GeneratedAt: v.string(), GeneratedBy: v.nullable(v.string()) })),
});
export type AnalysisResponse = v.InferOutput<typeof analysisResponseSchema>;
export type StoredAnalysis = NonNullable<AnalysisResponse['Analysis']>;
