// The published contract: GET /api/openapi.json is a valid OpenAPI 3.1 document (checked with
// @apidevtools/swagger-parser) that covers every endpoint of ENDPOINTS with its permission, its
// inputs as the spec names them and its answer; GET /api/docs is the reference page, whose one
// inline script is allowed by hash on that page only.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ENDPOINTS } from '../../src/shared/schemas/endpoints.js';
import { HUB_EVENTS } from '../../src/shared/schemas/live.js';

type Operation = {
  security: unknown[];
  'x-permission'?: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; items?: unknown } }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

let t: TestApp;
let doc: Doc;
const op = (endpoint: keyof typeof ENDPOINTS) => {
  const [method, path] = endpoint.split(' ') as [string, string];
  return doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
};
const bodyKeys = (o: Operation | undefined) => Object.keys(o?.requestBody?.content['application/json']?.schema.properties ?? {});
const answerKeys = (o: Operation | undefined) => Object.keys(o?.responses['200']?.content?.['application/json']?.schema.properties ?? {});

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as Doc;
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  test('names every endpoint of the contract, with its access', () => {
    const missing = Object.keys(ENDPOINTS).filter((e) => !op(e as keyof typeof ENDPOINTS));
    expect(missing).toEqual([]);
    for (const route of t.routes) {
      const o = op(`${route.method} ${route.path}` as keyof typeof ENDPOINTS)!;
      if (route.access === 'public') expect(o.security, route.path).toEqual([]);
      else expect(o.security, route.path).toEqual([{ bearer: [] }]);
      expect(o['x-permission'], route.path).toBe(route.access === 'public' || route.access === 'signed-in' ? undefined : route.access);
      if (route.access !== 'public') expect(Object.keys(o.responses), route.path).toContain('401');
    }
  });

  test('inputs and answers as the spec names them', () => {
    expect(bodyKeys(op('POST /api/v1/device/allocate-many'))).toEqual(expect.arrayContaining(['devices', 'customerId', 'orderNumber']));
    expect(bodyKeys(op('PUT /alarm-report/update'))).toEqual(expect.arrayContaining(['escalationPlanFollowed', 'alarmReportId', 'alarmId']));
    expect(op('GET /ps-admin/customers/get-details')?.parameters?.map((p) => p.name)).toContain('CustomerId');
    expect(op('PUT /api/v1/device/:deviceId/general-details')?.parameters).toContainEqual(
      expect.objectContaining({ name: 'deviceId', in: 'path', required: true }),
    );
    expect(answerKeys(op('POST /alarm-report/get-list'))).toEqual(expect.arrayContaining(['AlarmReports', 'TotalCount']));
    expect(answerKeys(op('GET /api/v1/device/get-by-id'))).toEqual(expect.arrayContaining(['serialNumber', 'customer', 'customerName']));
    expect(Object.keys(op('POST /connect/token')?.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(op('POST /api/v1/import/devices')?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(Object.keys(op('POST /alarm-report/export-list')?.responses['200']?.content ?? {})).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    // the hub's events are described with their payloads, the spec's live-update names included
    for (const e of HUB_EVENTS)
      expect(Object.keys(doc.components.schemas[`Hub${e}Event`]?.properties ?? {})).toEqual(expect.arrayContaining(['serial', 'date', 'partitionKey']));
  });
});

describe('what a linter (redocly recommended) asks of the document', () => {
  test('servers, licence, tag descriptions, every component used, a 4XX answer on every operation', () => {
    const d = doc as unknown as {
      servers?: { url: string }[];
      info: { license?: { name: string } };
      tags: { name: string; description?: string }[];
      webhooks?: Record<string, unknown>;
    };
    expect(d.servers?.length).toBeGreaterThan(0);
    expect(d.info.license?.name).toBeTruthy();
    for (const tag of d.tags) expect(tag.description, tag.name).toBeTruthy();
    const text = JSON.stringify({ ...doc, components: undefined });
    const unused = Object.keys(doc.components.schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    expect(unused).toEqual([]);
    const without4xx: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, o] of Object.entries(ops)) if (!Object.keys(o.responses).some((c) => c.startsWith('4'))) without4xx.push(`${method} ${path}`);
    expect(without4xx).toEqual([]);
  });

  test('ambiguous path templates: only the pair the spec names', () => {
    const paths = Object.keys(doc.paths);
    const segs = (p: string) => p.split('/');
    const overlap = (a: string, b: string) => {
      const [x, y] = [segs(a), segs(b)];
      return x.length === y.length && x.every((s, i) => s === y[i] || s.startsWith('{') || y[i]!.startsWith('{'));
    };
    const pairs: string[] = [];
    for (let i = 0; i < paths.length; i++)
      for (let j = i + 1; j < paths.length; j++) if (overlap(paths[i]!, paths[j]!)) pairs.push(`${paths[i]} ~ ${paths[j]}`);
    // The spec's own routes: /api/v1/export/{id} (an export job) and /api/v1/{id}/unlock (a person) both match /api/v1/export/unlock.
    expect(pairs).toEqual(['/api/v1/{id}/unlock ~ /api/v1/export/{id}']);
  });
});

describe('GET /api/docs', () => {
  test('the reference page loads its script from our origin; only its inline start-up script is allowed, by hash', async () => {
    const res = await t.request('/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<script src="/api/docs/scalar.js">');
    expect(html).toContain('/api/openapi.json');
    expect(html).not.toMatch(/https?:\/\//);
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]!).digest('base64');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    // every other answer keeps the app's policy
    expect((await t.request('/api/openapi.json')).headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const script = await t.request('/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
