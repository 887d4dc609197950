// Second factor: which factor a person has, where their code goes, and sending it.
import { TWO_FACTOR_MODE } from '../../shared/schemas/admin.js';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { DB } from '../db/index.js';
import type { Person } from '../db/schema.js';
import type { Deps } from '../http/api.js';
import { TWO_FACTOR_TYPE, TWO_FACTOR_TYPES } from '../../shared/codes.js';
import { isAcceptedPhone } from '../../shared/phone.js';
import type { TwoFactorPhone, TwoFactorSetting } from '../../shared/schemas/auth.js';
import { auditAccount, CODE_TTL_MS, createVerificationCode, globalSetting, lockPersonRow, pendingCode } from './store.js';
import { tx } from '../db/index.js';

export const TWO_FACTOR_MODE_KEY = TWO_FACTOR_MODE.key;

/** Mode '1' makes a second factor compulsory: persons without one get codes by e-mail. */
export async function twoFactorEnforced(db: DB) {
  return (await globalSetting(db, TWO_FACTOR_MODE_KEY)) === '1';
}

/** The factor sign-in asks for: the person's own choice, else e-mail when enforced, else none. */
export function effectiveFactor(person: Person, enforced: boolean): 1 | 2 | null {
  if (person.twoFactorType === TWO_FACTOR_TYPE.Email || person.twoFactorType === TWO_FACTOR_TYPE.SMS) return person.twoFactorType;
  return enforced ? TWO_FACTOR_TYPE.Email : null;
}

export function parseTwoFactorPhone(json: string | null): TwoFactorPhone | null {
  if (!json) return null;
  try {
    const p = JSON.parse(json) as Partial<TwoFactorPhone>;
    return p && typeof p.number === 'string' ? { countryId: String(p.countryId ?? ''), number: p.number, type: p.type ?? null } : null;
  } catch {
    return null;
  }
}

/** E.164 form of a number entered for a country (country id → ISO code via the countries table). */
export async function internationalNumber(db: DB, phone: { countryId: string; number: string }): Promise<string | null> {
  const country = await db.selectFrom('countries').select('code').where('id', '=', phone.countryId).executeTakeFirst();
  if (!country) return null;
  const parsed = parsePhoneNumberFromString(phone.number, country.code as CountryCode);
  return isAcceptedPhone(parsed, country.code) ? parsed.number : null;
}

export function twoFactorSetting(person: Person): TwoFactorSetting {
  const option = TWO_FACTOR_TYPES.find((t) => t.Value === person.twoFactorType);
  return {
    twoFactorAuthentication: {
      type: option ? { name: option.Name, value: option.Value } : null,
      phoneNumber: parseTwoFactorPhone(person.twoFactorPhone),
    },
  };
}

/**
 * Issues a fresh code and sends it: SMS to the person's two-factor number when the factor is
 * SMS (falling back to e-mail if no usable number is stored), otherwise e-mail. The code, the
 * outbox row and the audit entry are written in one transaction, with the person's row locked,
 * and the message leaves after the commit. `onlyIfNonePending`: do nothing when a valid code is
 * out already (sign-in sends a code once, also when two sign-ins arrive together).
 */
export async function sendVerificationCode(d: Deps, person: Person, factor: 1 | 2, reason: 'sign-in' | 'resend', opts: { onlyIfNonePending?: boolean } = {}) {
  const at = d.config.now();
  let channel: 'email' | 'sms' = 'email';
  let recipient = person.email;
  if (factor === TWO_FACTOR_TYPE.SMS) {
    const phone = parseTwoFactorPhone(person.twoFactorPhone);
    const number = phone && (await internationalNumber(d.db, phone));
    if (number) {
      channel = 'sms';
      recipient = number;
    }
  }
  const minutes = Math.round(CODE_TTL_MS / 60_000);
  const sent = await tx(d.db, async (trx) => {
    await lockPersonRow(trx, person.id);
    if (opts.onlyIfNonePending && (await pendingCode(trx, person.id, at))) return false;
    const code = await createVerificationCode(trx, person.id, at);
    await d.outbox.enqueue(trx, {
      channel,
      recipient,
      subject: 'Your verification code',
      body: `Your verification code is ${code}. It expires in ${minutes} minutes.`,
      urgent: true, // asked for to sign in: never held by a customer's e-mail pause
    });
    await auditAccount(trx, person.id, 'verification-code-sent', { channel, reason }, at);
    return true;
  });
  if (sent) d.outbox.flush(d.db);
}
