// Logs: one JSON line per entry on stdout through pino, with a level (LOG_LEVEL: trace, debug,
// info, warn, error, fatal, silent; default info) and the request id of the request being served
// on every line written while it runs (AsyncLocalStorage). Secrets are replaced by '[Redacted]'
// by key, at the top level and one level down: passwords, tokens, second-factor codes, keys,
// secrets, authorization headers and cookies. LOG_FORMAT=pretty prints readable lines through pino-pretty
// (a development dependency: installed by `npm install`, absent after `npm ci --omit=dev`, and
// then the plain JSON lines are written).
//
// `deps.log(entry)` stays the one call the code makes: `msg` is the message, `level` (optional)
// the level; an entry with an `error` field and no level is logged as an error.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';

export type LogEntry = Record<string, unknown>;
export type Log = (entry: LogEntry) => void;

/** Keys whose values never reach the log (matched at the top level and one level down). */
export const REDACTED_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'id_token',
  'idToken',
  'verificationCode',
  'twoFactorCode',
  'otp',
  'client_secret',
  'clientSecret',
  'secret',
  'jwtSecret',
  'key',
  'apiKey',
  'gatewayKey',
  'hmacKey',
  'authorization',
  'cookie',
  'set-cookie',
  'x-gateway-key',
] as const;

/**
 * `code` alone names error codes (SQLITE_FULL, an API error code) and stays readable at the top
 * level; inside a logged request (body, form, query) it is the second-factor code and is redacted.
 */
const CODE_PATHS = ['body.code', 'form.code', 'query.code', 'input.code'];
const paths = (keys: readonly string[]) => keys.flatMap((k) => (/^[A-Za-z_]\w*$/.test(k) ? [k, `*.${k}`] : [`["${k}"]`, `*["${k}"]`]));

/** The request the current code runs for (set by the app's request middleware). */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

const LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

export function logLevel(raw: string | undefined): Level | 'silent' {
  const v = (raw ?? '').trim().toLowerCase();
  if (!v) return 'info';
  if (v === 'silent' || LEVELS.includes(v)) return v as Level | 'silent';
  throw new Error(`LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "${raw}"`);
}

/** pino-pretty when LOG_FORMAT=pretty and it is installed (development), else undefined. */
function prettyStream(): DestinationStream | undefined {
  try {
    const pretty = createRequire(import.meta.url)('pino-pretty') as (o: object) => DestinationStream;
    return pretty({ colorize: !!process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  } catch {
    return undefined;
  }
}

export type LoggerOptions = { level?: string; format?: string; destination?: DestinationStream };

/** The process logger. `destination` (tests) replaces stdout. */
export function createLogger(o: LoggerOptions = {}): Logger {
  const destination = o.destination ?? ((o.format ?? '').trim().toLowerCase() === 'pretty' ? prettyStream() : undefined);
  return pino(
    {
      level: logLevel(o.level),
      base: undefined, // no pid/hostname on every line
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...paths(REDACTED_KEYS), ...CODE_PATHS], censor: '[Redacted]' },
      mixin: () => {
        const store = requestContext.getStore();
        return store ? { requestId: store.requestId } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** `deps.log` over a pino logger: `{ msg, level?, ...fields }`. */
export function logFunction(logger: Logger): Log {
  return (entry) => {
    const { msg, level, ...fields } = entry;
    const lvl: Level = typeof level === 'string' && LEVELS.includes(level) ? (level as Level) : fields.error !== undefined ? 'error' : 'info';
    logger[lvl](fields, typeof msg === 'string' ? msg : msg === undefined ? '' : String(msg));
  };
}

let processLogger: Logger | undefined;
/** The logger of this process, configured from LOG_LEVEL and LOG_FORMAT on first use. */
export function rootLogger(): Logger {
  return (processLogger ??= createLogger({ level: process.env.LOG_LEVEL, format: process.env.LOG_FORMAT }));
}
/** `deps.log` of this process. */
let processLog: Log | undefined;
export const log: Log = (entry) => (processLog ??= logFunction(rootLogger()))(entry);
