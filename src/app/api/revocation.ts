// POST /connect/revocation (RFC 7009): logout ends the session on the server as well (the refresh
// token's family is revoked, the access token stops working within seconds). Best effort: the
// local logout never waits for it or fails because of it; keepalive lets it finish while the page
// navigates away.
import { CLIENT_ID } from './http';

export const REVOCATION_PATH = '/connect/revocation';

export function revokeRefreshToken(refreshToken: string): void {
  const body = new URLSearchParams({ token: refreshToken, token_type_hint: 'refresh_token', client_id: CLIENT_ID });
  try {
    void fetch(REVOCATION_PATH, { method: 'POST', body, keepalive: true }).catch(() => undefined);
  } catch {
    // no fetch (tests without a network): nothing to do
  }
}
