// The single-sign-on sub-views of the sign-in page (spec §2): consent notice, account picker,
// error alert with Back, and the wait while the provider round trip or the exchange runs.
import { Box, Button, Callout, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { MSG } from '../../../shared/messages';
import type { SsoAccount } from '../../../shared/schemas/auth';

export function SsoConsent({ onBack, onAccept }: { onBack: () => void; onAccept: () => void }) {
  return (
    <section aria-labelledby="sso-consent-title">
      <Heading as="h2" size="5" mb="3" id="sso-consent-title">
        {MSG.ssoConsentTitle}
      </Heading>
      <Text as="p" size="3" mb="5">
        {MSG.ssoConsentText}
      </Text>
      <Flex gap="3" justify="end">
        <Button type="button" variant="soft" color="gray" size="3" onClick={onBack}>
          {MSG.back}
        </Button>
        <Button type="button" size="3" onClick={onAccept} autoFocus>
          Accept
        </Button>
      </Flex>
    </section>
  );
}

/** Customer names that more than one of the accounts carries. */
export function sharedCustomerNames(accounts: readonly Pick<SsoAccount, 'customerName'>[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const a of accounts) (seen.has(a.customerName) ? shared : seen).add(a.customerName);
  return shared;
}

export function SsoAccountPicker({ accounts, onChoose, onBack }: { accounts: SsoAccount[]; onChoose: (a: SsoAccount) => void; onBack: () => void }) {
  const firstSelectable = accounts.findIndex((a) => a.canSelect);
  // Two accounts of one customer name are told apart by their e-mail, shown first.
  const sharedNames = sharedCustomerNames(accounts);
  return (
    <section aria-labelledby="sso-accounts-title">
      <Heading as="h2" size="5" mb="3" id="sso-accounts-title">
        {MSG.ssoSelectAccount}
      </Heading>
      {accounts.length === 0 ? (
        <Text as="p" size="3" mb="4" color="gray">
          {MSG.ssoNoAccounts}
        </Text>
      ) : (
        <ul className="sso-accounts" aria-label={MSG.ssoSelectAccount}>
          {accounts.map((a, i) => (
            <li key={a.emailAddress}>
              <button type="button" className="sso-account" disabled={!a.canSelect} onClick={() => onChoose(a)} autoFocus={i === firstSelectable}>
                {sharedNames.has(a.customerName) ? (
                  <>
                    <span className="sso-account-name">{a.emailAddress}</span>
                    <span className="sso-account-email">{a.customerName}</span>
                  </>
                ) : (
                  <>
                    <span className="sso-account-name">{a.customerName}</span>
                    <span className="sso-account-email">{a.emailAddress}</span>
                  </>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Button type="button" variant="soft" color="gray" size="3" onClick={onBack} autoFocus={firstSelectable < 0}>
        {MSG.back}
      </Button>
    </section>
  );
}

export function SsoError({ message, onBack }: { message: string; onBack: () => void }) {
  return (
    <>
      <Callout.Root color="red" role="alert" mb="4">
        <Callout.Text>{message}</Callout.Text>
      </Callout.Root>
      <Button type="button" variant="soft" onClick={onBack} autoFocus>
        {MSG.back}
      </Button>
    </>
  );
}

export function SsoLoading({ providerName }: { providerName: string }) {
  return (
    <Box role="status" aria-live="polite" py="4">
      <Flex align="center" gap="3">
        <Spinner size="3" />
        <Text size="3">Signing in with {providerName}…</Text>
      </Flex>
    </Box>
  );
}
