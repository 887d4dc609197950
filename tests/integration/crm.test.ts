// The CRM behind "linked customer account" (POST /api/v1/salesforce/account/query): the embedded
// directory (default) and the Salesforce adapter against a local HTTP server answering in
// Salesforce's documented REST query shape ({ totalSize, done, records: [{ attributes: { type,
// url }, ...fields }] }): the SOQL it sends (search text escaped), the bearer token, the OAuth
// client-credentials flow with one retry after a 401, the mapping, and 503 when the CRM fails.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { tokenFor } from '../helpers/auth.js';
import { errorOf, insertCustomer, ok } from '../helpers/customers.js';
import { first } from '../helpers/lists.js';
import { crmConfig, StartupError } from '../../src/server/platform/config.js';
import { accountQuery, soqlLikeLiteral } from '../../src/server/modules/customers/crm/salesforce.js';
import { CUSTOMER_CODE, CUSTOMER_TEXT, type CrmAccount, type CustomerDetails } from '../../src/shared/schemas/customers.js';

const search = async (t: TestApp, token: string, query: string) =>
  ok<CrmAccount[]>(await t.request('/api/v1/salesforce/account/query', { method: 'POST', token, json: { query } }));

describe('embedded CRM directory', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await tokenFor(t.config, ['SuperAdminRole']);
    const row = (id: string, name: string, urn: string) => ({
      id,
      name,
      urn,
      streetLine1: '1 High Street',
      streetLine2: null,
      county: 'West Yorkshire',
      city: 'Leeds',
      postalCode: 'LS1 1AA',
      country: 'United Kingdom',
      phone: '+441134960000',
      accountManagerFullName: 'Alex Owner',
      customerSuccessManagerFullName: 'Sam Success',
      customerSuccessTier: 3,
      searchName: name.toLowerCase(),
    });
    await t.db
      .insertInto('crmAccounts')
      .values([row('001A', 'Northern Water', 'URN0000101'), row('001B', 'Water Northern Trust', 'URN0000102'), row('001C', 'Acme 100% Ltd', 'URN0000103')])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  test('matches part of the name or URN, names starting with the text first; maps the country to its id', async () => {
    const found = await search(t, admin, 'NORTHERN');
    expect(found.map((a) => a.name)).toEqual(['Northern Water', 'Water Northern Trust']);
    expect(first(found)).toEqual({
      id: '001A',
      name: 'Northern Water',
      urn: 'URN0000101',
      streetLine1: '1 High Street',
      streetLine2: null,
      county: 'West Yorkshire',
      city: 'Leeds',
      postalCode: 'LS1 1AA',
      country: 'United Kingdom',
      countryId: 'country-gb',
      phone: '+441134960000',
      accountManagerFullName: 'Alex Owner',
      customerSuccessManagerFullName: 'Sam Success',
      customerSuccessTier: 3,
    });
    expect((await search(t, admin, 'urn0000103')).map((a) => a.id)).toEqual(['001C']);
    expect((await search(t, admin, '100%')).map((a) => a.id)).toEqual(['001C']);
    expect(await search(t, admin, 'e%')).toEqual([]); // '%' matches itself only (unescaped, 'e%' would match every name with an e)
    expect(await search(t, admin, '  ')).toEqual([]);
  });

  test('refusals', async () => {
    const controller = await tokenFor(t.config, ['ArcControllerRole']);
    expect((await t.request('/api/v1/salesforce/account/query', { method: 'POST', token: controller, json: { query: 'a' } })).status).toBe(403);
    const long = await t.request('/api/v1/salesforce/account/query', { method: 'POST', token: admin, json: { query: 'x'.repeat(101) } });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).Message).toBe(CUSTOMER_TEXT.crmQueryTooLong);
  });
});

describe('SOQL escaping', () => {
  test('quotes, backslashes, control characters and LIKE wildcards are escaped', () => {
    expect(soqlLikeLiteral(`O'Brien\\ 50%_x"\n`)).toBe(`O\\'Brien\\\\ 50\\%\\_x\\"\\n`);
    const q = accountQuery({ urnField: 'URN__c', csmField: 'CSM__c', tierField: 'Tier__c' }, `x' OR Name LIKE '%`, 20);
    expect(q).toContain(`WHERE Name LIKE '%x\\' OR Name LIKE \\'\\%%' OR URN__c LIKE '%x\\' OR Name LIKE \\'\\%%'`);
    expect(() => accountQuery({ urnField: 'URN__c; DELETE', csmField: 'a', tierField: 'b' }, 'x', 1)).toThrow();
  });

  test('configuration: Salesforce only with an instance URL and credentials', () => {
    expect(crmConfig({})).toEqual({ provider: 'embedded' });
    expect(() => crmConfig({ SALESFORCE_INSTANCE_URL: 'https://example.my.salesforce.com' })).toThrow(StartupError);
    expect(crmConfig({ SALESFORCE_INSTANCE_URL: 'https://example.my.salesforce.com', SALESFORCE_ACCESS_TOKEN: 'tok' })).toMatchObject({
      provider: 'salesforce',
      apiVersion: '60.0',
      urnField: 'URN__c',
    });
  });
});

describe('Salesforce adapter against a local server', () => {
  type Seen = { method: string; path: string; query: URLSearchParams; auth: string | undefined; body: string };
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let tokensIssued = 0;
  let failNextQueryWith: number | null = null;
  const apps: TestApp[] = [];

  const record = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
    attributes: { type: 'Account', url: `/services/data/v59.0/sobjects/Account/${id}` },
    Id: id,
    Name: name,
    URN__c: 'URN0000777',
    BillingStreet: '2 Quay Side\nUnit 4',
    BillingCity: 'Bristol',
    BillingState: 'Avon',
    BillingPostalCode: 'BS1 4QA',
    BillingCountry: 'United Kingdom',
    Phone: '+441179460000',
    Owner: { attributes: { type: 'User', url: '/services/data/v59.0/sobjects/User/005' }, Name: 'Olivia Owner' },
    Customer_Success_Manager__c: 'Chris Success',
    Customer_Success_Tier__c: 'Platinum',
    ...extra,
  });

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, auth: req.headers.authorization, body });
        const json = (status: number, b: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(b));
        };
        if (url.pathname === '/services/oauth2/token') {
          const form = new URLSearchParams(body);
          if (form.get('client_id') !== 'cid' || form.get('client_secret') !== 'secret') return json(400, { error: 'invalid_client' });
          tokensIssued++;
          return json(200, { access_token: `token-${tokensIssued}`, instance_url: base, token_type: 'Bearer' });
        }
        if (url.pathname === '/services/data/v59.0/query') {
          if (failNextQueryWith) {
            const s = failNextQueryWith;
            failNextQueryWith = null;
            return json(s, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
          }
          const records = [
            record('001XX000003DHP0', 'Quayside Ports'),
            record('001XX000003DHP1', 'Quayside Marine', { URN__c: null, BillingStreet: null, Customer_Success_Tier__c: null }),
          ];
          return json(200, { totalSize: records.length, done: true, records });
        }
        json(404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    seen.length = 0;
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function appWith(env: Record<string, string>) {
    const t = await createTestApp({ crm: crmConfig({ SALESFORCE_INSTANCE_URL: base, SALESFORCE_API_VERSION: '59.0', ...env }) });
    apps.push(t);
    return { t, admin: await tokenFor(t.config, ['SuperAdminRole']) };
  }

  test('access token: sends the escaped SOQL with the bearer token and maps the records', async () => {
    const { t, admin } = await appWith({ SALESFORCE_ACCESS_TOKEN: 'static-token' });
    const found = await search(t, admin, "Quay'side");
    const q = seen.find((s) => s.path.endsWith('/query'))!;
    expect(q.auth).toBe('Bearer static-token');
    expect(q.query.get('q')).toBe(
      "SELECT Id, Name, URN__c, BillingStreet, BillingCity, BillingState, BillingPostalCode, BillingCountry, Phone, Owner.Name, Customer_Success_Manager__c, Customer_Success_Tier__c FROM Account WHERE Name LIKE '%Quay\\'side%' OR URN__c LIKE '%Quay\\'side%' ORDER BY Name LIMIT 20",
    );
    expect(found).toEqual([
      {
        id: '001XX000003DHP0',
        name: 'Quayside Ports',
        urn: 'URN0000777',
        streetLine1: '2 Quay Side',
        streetLine2: 'Unit 4',
        county: 'Avon',
        city: 'Bristol',
        postalCode: 'BS1 4QA',
        country: 'United Kingdom',
        countryId: 'country-gb',
        phone: '+441179460000',
        accountManagerFullName: 'Olivia Owner',
        customerSuccessManagerFullName: 'Chris Success',
        customerSuccessTier: 4,
      },
      expect.objectContaining({ id: '001XX000003DHP1', urn: null, streetLine1: null, streetLine2: null, customerSuccessTier: null }),
    ]);
  });

  test('client credentials: one token, reused; a 401 gets a new token and one retry', async () => {
    const { t, admin } = await appWith({ SALESFORCE_CLIENT_ID: 'cid', SALESFORCE_CLIENT_SECRET: 'secret' });
    const before = tokensIssued;
    await search(t, admin, 'quay');
    await search(t, admin, 'quay');
    expect(tokensIssued - before).toBe(1);
    const tokenCall = seen.find((s) => s.path === '/services/oauth2/token')!;
    expect(Object.fromEntries(new URLSearchParams(tokenCall.body))).toEqual({ grant_type: 'client_credentials', client_id: 'cid', client_secret: 'secret' });
    failNextQueryWith = 401;
    expect(await search(t, admin, 'quay')).toHaveLength(2);
    expect(tokensIssued - before).toBe(2);
    const auths = seen.filter((s) => s.path.endsWith('/query')).map((s) => s.auth);
    expect(auths.slice(-2)).toEqual([`Bearer token-${before + 1}`, `Bearer token-${before + 2}`]);
  });

  test("the customer's details link to its Salesforce account (none with the embedded directory)", async () => {
    const { t, admin } = await appWith({ SALESFORCE_ACCESS_TOKEN: 'static-token' });
    const c = await insertCustomer(t.db, { name: 'Linked Ltd', salesforceId: '001XX000003DHP0', salesforceUrn: 'URN0000777', isSalesforceAccount: 1 });
    const d = await ok<CustomerDetails>(await t.request(`/ps-admin/customers/get-details?CustomerId=${c.id}`, { token: admin }));
    expect(d.SalesforceLink).toBe(`${base}/lightning/r/Account/001XX000003DHP0/view`);
    const plain = await createTestApp();
    apps.push(plain);
    const c2 = await insertCustomer(plain.db, { name: 'Linked Ltd', salesforceId: '001XX000003DHP0', salesforceUrn: 'URN0000777', isSalesforceAccount: 1 });
    const token = await tokenFor(plain.config, ['SuperAdminRole']);
    expect((await ok<CustomerDetails>(await plain.request(`/ps-admin/customers/get-details?CustomerId=${c2.id}`, { token }))).SalesforceLink).toBeNull();
  });

  test('CRM failures answer 503 crm_unavailable', async () => {
    const { t, admin } = await appWith({ SALESFORCE_ACCESS_TOKEN: 'static-token' });
    failNextQueryWith = 500;
    const res = await t.request('/api/v1/salesforce/account/query', { method: 'POST', token: admin, json: { query: 'quay' } });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({ Code: CUSTOMER_CODE.crmUnavailable, Message: CUSTOMER_TEXT.crmUnavailable });
    const wrong = await appWith({ SALESFORCE_CLIENT_ID: 'cid', SALESFORCE_CLIENT_SECRET: 'wrong' });
    expect((await wrong.t.request('/api/v1/salesforce/account/query', { method: 'POST', token: wrong.admin, json: { query: 'quay' } })).status).toBe(503);
  });
});
