// Alarm report intelligence against the real server on SQLite, and PostgreSQL with TEST_DB=pg:
// generating and storing the Analysis, the stored copy staying as generated until regenerated,
// the permissions (view with View, generate with AddNote), the feature flags and the customer's
// settings (off: nothing shown, nothing generated), and the demo seed's auto-generated analyses.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setFeature } from '../../src/server/modules/admin/repo.js';
import * as v from 'valibot';
import { randomUUID } from 'node:crypto';
import { readXlsx } from '../helpers/xlsx.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { signedIn } from '../helpers/auth.js';
import { insertAlarmReport, intelligenceCustomer } from '../helpers/alarm-reports.js';
import { createTestDb } from '../helpers/db.js';
import { seedDemoData } from '../../src/server/seed/demo.js';
import { analysisResponseSchema, INTELLIGENCE_TEXT } from '../../src/shared/schemas/alarm-intelligence.js';
import { createApp } from '../../src/server/app.js';
import { testConfig } from '../../src/server/platform/config.js';
import { createOutbox } from '../../src/server/mail/outbox.js';
import { tokenFor } from '../helpers/auth.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
let t: TestApp;
let controller: { token: string; email: string };
let readonly: string;

beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  controller = await signedIn(t.db, t.config, ['ArcControllerRole'], 'intel.controller@staff.test');
  readonly = (await signedIn(t.db, t.config, ['SuperAdminReadonlyRole'])).token;
});
afterAll(async () => {
  await t.close();
});

async function getAnalysis(reportId: string, token = controller.token) {
  const res = await t.request(`/alarm-report/get-analysis?AlarmReportId=${reportId}`, { token });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { Content?: { Code: string; Message: string } } };
}
async function generate(reportId: string, token = controller.token) {
  const res = await t.request('/alarm-report/generate-analysis', { method: 'POST', token, json: { alarmReportId: reportId } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { Content?: { Code: string; Message: string } } };
}

/** A customer with intelligence (and auto-generate) on, and one report of theirs. */
async function customerWithReport(settings: { intel?: boolean; auto?: boolean } = {}) {
  const customer = await intelligenceCustomer(t.db, 'Intel', settings);
  const report = await insertAlarmReport(t.db, {
    customerId: customer.id,
    customerAccountFullName: customer.name,
    verificationStartedSeconds: 25,
    escalationPlanFollowed: 1,
    calls: [{ duration: 0, records: [] }, { records: [{ SId: 'RE-GONE', Unavailable: true, Reason: 'Recording not found' }] }],
    journal: [
      { details: 'Outbound Second Line', customProperties: JSON.stringify({ kind: 'call', to: '+447700900111', from: '+443300000000', duration: 31 }) },
    ],
  });
  return { customer, report };
}

describe('generate and view', () => {
  test('nothing stored until generated; generating stores the analysis of the report', async () => {
    const { report } = await customerWithReport();
    expect((await getAnalysis(report.id)).body).toEqual({ Enabled: true, Analysis: null });

    const g = await generate(report.id);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const a = v.parse(analysisResponseSchema, g.body).Analysis!;
    expect(a.GeneratedAt).toBe(NOW.toISOString());
    expect(a.GeneratedBy).toBeTruthy();
    expect(a.Timeline.map((s) => [s.Step, s.Seconds, s.Band])).toEqual([
      ['Raised', 0, null],
      ['Verification started', 25, '10-40 s'],
      ['Verification completed', 150, '120-180 s'],
      ['Closed', 120, null],
    ]);
    expect(a.PlanCheck).toMatchObject({
      PlanName: 'Default plan',
      Instructions: [{ ContactName: 'Manager - Ann Lee', Outcome: 'Answered', Calls: 1 }],
      Followed: true,
      Ticked: true,
      Verdict: 'Agrees',
    });
    expect(a.Anomalies.map((x) => x.Kind).sort()).toEqual(
      ['duressWordsActive', 'failedCall', 'noNotesOnRealIncident', 'recordingUnavailable', 'verificationOutsideTarget'].sort(),
    );
    expect(a.Anomalies.find((x) => x.Kind === 'recordingUnavailable')!.Text).toContain('Recording not found');
    expect(a.Summary).toContain('raised at 20 Nov 26 09:58:00');

    const stored = await t.db.selectFrom('alarmReportAnalyses').selectAll().where('alarmReportId', '=', report.id).execute();
    expect(stored).toHaveLength(1);
    expect((await getAnalysis(report.id)).body).toEqual(g.body);
  });

  test('the stored analysis stays as generated when the report changes, until regenerated', async () => {
    const { report } = await customerWithReport();
    const first = (await generate(report.id)).body;
    await t.db.updateTable('alarmReports').set({ escalationPlanFollowed: 0 }).where('id', '=', report.id).execute();
    expect((await getAnalysis(report.id)).body).toEqual(first);

    const again = v.parse(analysisResponseSchema, (await generate(report.id)).body).Analysis!;
    expect(again.PlanCheck).toMatchObject({ Followed: true, Ticked: false, Verdict: 'Questions' });
    expect(await t.db.selectFrom('alarmReportAnalyses').select('alarmReportId').where('alarmReportId', '=', report.id).execute()).toHaveLength(1);
    expect(v.parse(analysisResponseSchema, (await getAnalysis(report.id)).body).Analysis!.PlanCheck!.Verdict).toBe('Questions');
  });

  test('view with View, generate with AddNote', async () => {
    const { report } = await customerWithReport();
    await generate(report.id);
    const view = await getAnalysis(report.id, readonly);
    expect(view.status).toBe(200);
    expect(v.parse(analysisResponseSchema, view.body).Analysis).not.toBeNull();
    const denied = await generate(report.id, readonly);
    expect(denied.status).toBe(403);
    expect(denied.body.Content?.Code).toBe('forbidden');
    expect((await t.request('/alarm-report/generate-analysis', { method: 'POST', json: { alarmReportId: report.id } })).status).toBe(401);
  });

  test('unknown report: 404; bad id: 400', async () => {
    expect((await getAnalysis(randomUUID())).status).toBe(404);
    expect((await generate(randomUUID())).status).toBe(404);
    expect((await generate('nope')).status).toBe(400);
  });
});

describe('off: nothing shown, nothing generated', () => {
  test("the customer's setting off", async () => {
    const { report } = await customerWithReport({ intel: false, auto: false });
    expect((await getAnalysis(report.id)).body).toEqual({ Enabled: false, Analysis: null });
    const g = await generate(report.id);
    expect(g.status).toBe(403);
    expect(g.body.Content).toMatchObject({ Code: 'feature_disabled', Message: INTELLIGENCE_TEXT.disabled });
    expect(await t.db.selectFrom('alarmReportAnalyses').select('alarmReportId').where('alarmReportId', '=', report.id).execute()).toEqual([]);
  });

  test('a report without a customer', async () => {
    const report = await insertAlarmReport(t.db, { customerId: null });
    expect((await getAnalysis(report.id)).body).toEqual({ Enabled: false, Analysis: null });
    expect((await generate(report.id)).status).toBe(403);
  });

  test('the feature flag off hides a stored analysis and refuses to generate', async () => {
    const { report } = await customerWithReport();
    await generate(report.id);
    await setFeature(t.db, 'EnableAlarmReportIntelligence', false);
    try {
      expect((await getAnalysis(report.id)).body).toEqual({ Enabled: false, Analysis: null });
      expect((await generate(report.id)).status).toBe(403);
    } finally {
      await setFeature(t.db, 'EnableAlarmReportIntelligence', true);
    }
    expect(v.parse(analysisResponseSchema, (await getAnalysis(report.id)).body).Analysis).not.toBeNull();
  });
});

describe('.xlsx export', () => {
  test('the Analysis column group when an exported report has one shown; blank for the others; absent with the feature off', async () => {
    const { customer, report } = await customerWithReport();
    const other = await insertAlarmReport(t.db, { customerId: customer.id, customerAccountFullName: customer.name, alarmClosed: '2026-11-19T10:00:00.000Z' });
    const stored = v.parse(analysisResponseSchema, (await generate(report.id)).body).Analysis!;
    const exportSheet = async () => {
      const res = await t.request('/alarm-report/export-list', {
        method: 'POST',
        token: (await signedIn(t.db, t.config, ['ArcSupervisorRole'])).token,
        json: { customerAccountFullName: customer.name, alarmClosedDateRangeOption: 7, sortBy: 'AlarmClosedDate', sortDescending: true },
      });
      expect(res.status).toBe(200);
      const [sheet] = await readXlsx(Buffer.from(await res.arrayBuffer()));
      return sheet!.data;
    };
    const [header, first, second] = await exportSheet();
    expect(header!.slice(-3)).toEqual(['Analysis: Plan Check', 'Analysis: Anomalies', 'Analysis: Summary']);
    expect(first!.slice(-3)).toEqual(['Agrees', stored.Anomalies.length, stored.Summary]);
    expect(second![9]).toBe(other.alarmId);
    expect(second!.slice(-3)).toEqual([null, null, null]);

    await setFeature(t.db, 'EnableAlarmReportIntelligence', false);
    try {
      const [h] = await exportSheet();
      expect(h!.at(-1)).toBe('Device Serial');
    } finally {
      await setFeature(t.db, 'EnableAlarmReportIntelligence', true);
    }
  });
});

describe('demo seed', () => {
  test('auto-generates the analysis of the reports of customers with auto-generate on, equal to one generated on demand', async () => {
    const tdb = await createTestDb();
    try {
      await seedDemoData(tdb.db, { seed: 5, scale: 0.01, password: 'Demo-Passw0rd!', log: () => {}, now: NOW });
      const rows = await tdb.db
        .selectFrom('alarmReports')
        .leftJoin('customers', 'customers.id', 'alarmReports.customerId')
        .leftJoin('alarmReportAnalyses', 'alarmReportAnalyses.alarmReportId', 'alarmReports.id')
        .select(['alarmReports.id', 'customers.autoGenerateAlarmIntelligence as auto', 'alarmReportAnalyses.analysis'])
        .execute();
      const withAnalysis = rows.filter((r) => r.analysis !== null);
      expect(withAnalysis.length).toBeGreaterThan(0);
      expect(
        rows
          .filter((r) => r.auto === 1)
          .map((r) => r.id)
          .sort(),
      ).toEqual(withAnalysis.map((r) => r.id).sort());

      const config = testConfig({ now: () => NOW });
      const outbox = createOutbox({ smtpUrl: config.smtpUrl, log: () => {}, now: () => NOW });
      const { app } = createApp({ db: tdb.db, config, outbox, log: () => {} });
      const token = await tokenFor(config, ['ArcSupervisorRole']);
      for (const r of withAnalysis.slice(0, 5)) {
        const seeded = v.parse(
          analysisResponseSchema,
          await (await app.request(`/alarm-report/get-analysis?AlarmReportId=${r.id}`, { headers: { authorization: `Bearer ${token}` } })).json(),
        );
        expect(seeded.Analysis!.GeneratedBy).toBeNull();
        const res = await app.request('/alarm-report/generate-analysis', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ alarmReportId: r.id }),
        });
        const fresh = v.parse(analysisResponseSchema, await res.json());
        const strip = (a: typeof fresh.Analysis) => ({ ...a, GeneratedAt: null, GeneratedBy: null });
        expect(strip(fresh.Analysis)).toEqual(strip(seeded.Analysis));
      }
    } finally {
      await tdb.close();
    }
  });

  test('auto-generate feature off: the seed stores no analysis', async () => {
    const tdb = await createTestDb();
    try {
      await setFeature(tdb.db, 'AutoGenerateAlarmReportIntelligence', false);
      await seedDemoData(tdb.db, { seed: 5, scale: 0.01, password: 'Demo-Passw0rd!', log: () => {}, now: NOW });
      expect(await tdb.db.selectFrom('alarmReportAnalyses').select('alarmReportId').execute()).toEqual([]);
    } finally {
      await tdb.close();
    }
  });
});
