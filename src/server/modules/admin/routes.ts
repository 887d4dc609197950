// Provider administration (ours): the settings area (feature toggles, the global 2FA mode, the
// companies that require single sign-on), a person's login method, and the audit trail. A change
// to the sign-in rules that would lock the acting admin (or every provider admin) out is refused
// (auth/lockout.ts). Every write records an audit entry with its before and after values in the
// same transaction; the audit trail has no write route at all. A settings change is announced on the hub after the
// commit (SettingsChanged, to every connection on every node) so open clients refetch it.
// Queries: ./repo.ts.
import { deps, badRequest, notFound, type Api, type Ctx } from '../../http/api.js';
import { tx, type DB } from '../../db/index.js';
import { audit } from '../../platform/util.js';
import { findPersonById } from '../../auth/store.js';
import { bumpSessionEpoch } from '../../auth/session-epoch.js';
import { refuseLockout } from '../../auth/lockout.js';
import { publicBaseUrl, RESET_LINK_TTL_MINUTES, signResetToken } from '../../auth/reset.js';
import { P } from '../../../shared/permissions.js';
import { isValidId, normaliseId } from '../../../shared/codes.js';
import { ADMIN_TEXT, CODE, MSG } from '../../../shared/messages.js';
import { EXPORT_LABEL } from '../../../shared/export-format.js';
import type { ExportPool } from '../../exports/pool.js';
import type { Hub } from '../../realtime/hub.js';
import { exportResponse } from '../../exports/routes.js';
import type { MessageResponse } from '../../../shared/schemas/common.js';
import {
  auditListBody,
  featureUpdateBody,
  LOGIN_METHOD,
  loginMethodBody,
  loginMethodQuery,
  type LoginMethodDto,
  ssoDomainAddBody,
  SETTINGS_CHANGED_EVENT,
  type SettingsChangedEvent,
  ssoDomainQuery,
  TWO_FACTOR_MODE,
  twoFactorModeBody,
} from '../../../shared/schemas/admin.js';
import { addSsoDomain, findSsoDomain, listAudit, readAdminSettings, removeSsoDomain, setFeature, setGlobalSetting } from './repo.js';

const ok = (Message: string): MessageResponse => ({ Content: { Message } });

/** Tells every open client (every node's hub connections) to refetch its features and global settings. */
const announce = (hub: Hub, Kind: SettingsChangedEvent['Kind'], Name: string, at: Date) =>
  hub.broadcast(SETTINGS_CHANGED_EVENT, { Kind, Name, At: at.toISOString() } satisfies SettingsChangedEvent);

/** Announces the change (announce) and answers its message. */
async function announced(c: Ctx, hub: Hub, kind: SettingsChangedEvent['Kind'], name: string, at: Date, message: string) {
  await announce(hub, kind, name, at);
  return c.json(ok(message));
}

export function adminRoutes(api: Api, exports: ExportPool, hub: Hub) {
  api.get('/ps-admin/settings', { access: P.SettingsView }, async (c) => c.json(await readAdminSettings(deps(c).db)));

  api.put(
    '/ps-admin/settings/feature',
    { access: P.SettingsManage, json: featureUpdateBody, sample: { json: { name: 'ScheduledReports', isEnabled: true } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const at = d.config.now();
      if (body.name === 'SingleSignOn' && !body.isEnabled) await refuseLockout(d, user.id, { kind: 'sso-feature', isEnabled: false });
      await tx(d.db, async (trx) => {
        const before = await setFeature(trx, body.name, body.isEnabled);
        await audit(trx, {
          actorId: user.id,
          action: 'feature.update',
          entity: 'feature',
          entityId: body.name,
          at,
          details: { before, after: body.isEnabled },
        });
      });
      return announced(c, hub, 'feature', body.name, at, ADMIN_TEXT.featureSaved(body.name, body.isEnabled));
    },
  );

  api.put(
    '/ps-admin/settings/two-factor-mode',
    { access: P.SettingsManage, json: twoFactorModeBody, sample: { json: { value: 0 } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const at = d.config.now();
      await tx(d.db, async (trx) => {
        const before = await setGlobalSetting(trx, TWO_FACTOR_MODE.key, String(body.value));
        await audit(trx, {
          actorId: user.id,
          action: 'global-setting.update',
          entity: 'globalSetting',
          entityId: TWO_FACTOR_MODE.key,
          at,
          details: { before: before === null ? null : Number(before), after: body.value },
        });
      });
      return announced(c, hub, 'global-setting', TWO_FACTOR_MODE.key, at, ADMIN_TEXT.twoFactorModeSaved(body.value === TWO_FACTOR_MODE.enforced));
    },
  );

  api.post(
    '/ps-admin/sso-domains',
    { access: P.SettingsManage, json: ssoDomainAddBody, sample: { json: { domain: 'sample-company.test', customerId: null } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const at = d.config.now();
      if (body.customerId && !(await d.db.selectFrom('customers').select('id').where('id', '=', body.customerId).executeTakeFirst()))
        throw badRequest(ADMIN_TEXT.customerNotFound, CODE.validation, { customerId: ADMIN_TEXT.customerNotFound });
      await refuseLockout(d, user.id, { kind: 'require-sso-domain', domain: body.domain });
      await tx(d.db, async (trx) => {
        const added = await addSsoDomain(trx, body.domain, body.customerId);
        if (!added) throw badRequest(ADMIN_TEXT.domainExists(body.domain), CODE.validation, { domain: ADMIN_TEXT.domainExists(body.domain) });
        await auditSsoDomain(trx, 'sso-domain.add', { actorId: user.id, domain: body.domain, customerId: body.customerId, at });
      });
      return announced(c, hub, 'sso-domain', body.domain, at, ADMIN_TEXT.domainAdded(body.domain));
    },
  );

  api.delete(
    '/ps-admin/sso-domains',
    { access: P.SettingsManage, query: ssoDomainQuery, sample: { query: { domain: 'sample-company.test' } } },
    async (c, { query, user }) => {
      const d = deps(c);
      const at = d.config.now();
      await tx(d.db, async (trx) => {
        const before = await findSsoDomain(trx, query.domain);
        if (!before || !(await removeSsoDomain(trx, query.domain))) throw notFound(ADMIN_TEXT.domainNotFound);
        await auditSsoDomain(trx, 'sso-domain.remove', { actorId: user.id, domain: query.domain, customerId: before.customerId, at });
      });
      return announced(c, hub, 'sso-domain', query.domain, at, ADMIN_TEXT.domainRemoved(query.domain));
    },
  );

  api.get(
    '/ps-admin/persons/get-login-method',
    { access: P.SettingsView, query: loginMethodQuery, sample: { query: { id: '00000000-0000-4000-8000-000000000000' } } },
    async (c, { query }) => {
      const row = await deps(c).db.selectFrom('persons').select(['loginMethod', 'ssoEmail']).where('id', '=', query.id).executeTakeFirst();
      if (!row) throw notFound(ADMIN_TEXT.personNotFound);
      const body: LoginMethodDto = { LoginMethod: row.loginMethod, SsoEmail: row.ssoEmail ?? null };
      return c.json(body);
    },
  );

  api.put(
    '/api/v1/person/:id/login-method',
    { access: P.SettingsManage, json: loginMethodBody, sample: { json: { loginMethod: 1, ssoEmail: null } } },
    async (c, { body, user }) => {
      const d = deps(c);
      const raw = c.req.param('id');
      if (!isValidId(raw)) throw notFound(ADMIN_TEXT.personNotFound);
      const id = normaliseId(raw);
      const at = d.config.now();
      const person = await findPersonById(d.db, id);
      if (!person) throw notFound(ADMIN_TEXT.personNotFound);
      const ssoEmail = body.ssoEmail || null;
      await refuseLockout(d, user.id, { kind: 'login-method', personId: id, loginMethod: body.loginMethod });
      const backToPassword = person.loginMethod === LOGIN_METHOD.SingleSignOn && body.loginMethod === LOGIN_METHOD.Password;
      await tx(d.db, async (trx) => {
        await trx.updateTable('persons').set({ loginMethod: body.loginMethod, ssoEmail, updatedAt: at.toISOString() }).where('id', '=', id).execute();
        if (person.loginMethod !== body.loginMethod) await bumpSessionEpoch(trx, id);
        await audit(trx, {
          actorId: user.id,
          action: 'login-method-changed',
          entity: 'person',
          entityId: id,
          at,
          details: {
            before: { loginMethod: person.loginMethod, ssoEmail: person.ssoEmail },
            after: { loginMethod: body.loginMethod, ssoEmail },
            setPasswordSent: backToPassword,
          },
        });
        if (backToPassword) {
          const token = await signResetToken(d.config, person);
          const link = `${publicBaseUrl(d.config)}/reset-password?token=${encodeURIComponent(token)}`;
          await d.outbox.enqueue(trx, {
            channel: 'email',
            recipient: person.email,
            subject: 'Set your password',
            body:
              `Your account now signs in with a password instead of single sign-on. To choose your password, open this link:\n\n${link}\n\n` +
              `The link works once and expires in ${RESET_LINK_TTL_MINUTES} minutes.`,
            urgent: true,
          });
        }
      });
      if (backToPassword) d.outbox.flush(d.db);
      return c.json(ok(backToPassword ? ADMIN_TEXT.setPasswordSent(person.email) : ADMIN_TEXT.loginMethodSaved));
    },
  );

  api.post('/ps-admin/audit/get-list', { access: P.AuditView, json: auditListBody, sample: { json: {} } }, async (c, { body }) => {
    const { pageNumber, pageSize, ...filter } = body;
    return c.json(await listAudit(deps(c).db, filter, pageNumber, pageSize));
  });
  // The list's filters as .xlsx through the export pool (newest first, every matching entry up to the export cap).
  api.post('/ps-admin/audit/export-list', { access: P.AuditView, json: auditListBody, sample: { json: {} } }, (c, { body, user }) => {
    const { actor, entity, action, entityId, from, to } = body;
    return exportResponse(
      c,
      exports,
      user,
      { kind: 'audit', filter: { actor, entity, action, entityId, from, to } },
      EXPORT_LABEL.audit,
      MSG.auditExportFailed,
    );
  });
}

/** The audit entry of a single-sign-on domain added or removed (with the customer it belongs to). */
const auditSsoDomain = (trx: DB, action: string, e: { actorId: string; domain: string; customerId: string | null; at: Date }) =>
  audit(trx, { actorId: e.actorId, action, entity: 'ssoDomain', entityId: e.domain, at: e.at, details: { customerId: e.customerId } });
