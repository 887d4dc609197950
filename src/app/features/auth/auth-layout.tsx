// The frame around the signed-out pages: product name, the page, and the external Support and
// Privacy policy links (new tab). The URLs are placeholders until the provider supplies real ones.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'wouter';
import { Card, Link, Text } from '@radix-ui/themes';
import { MSG } from '../../../shared/messages';

export const SUPPORT_URL = 'https://support.example.com';
export const PRIVACY_POLICY_URL = 'https://example.com/privacy';

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">{MSG.productName}</span>
      </header>
      <main className="auth-main">
        <Card size="4" className="auth-card">
          {children}
        </Card>
      </main>
      <footer className="auth-footer">
        <Link href={SUPPORT_URL} target="_blank" rel="noopener noreferrer">
          {MSG.support}
        </Link>
        <span aria-hidden="true">·</span>
        <Link href={PRIVACY_POLICY_URL} target="_blank" rel="noopener noreferrer">
          {MSG.privacyPolicy}
        </Link>
      </footer>
    </div>
  );
}

/** A link to another signed-out page under a form, centred (`paragraph`: its own paragraph below the card's content). */
export function AuthPageLink({ href, children, paragraph = false }: { href: string; children: ReactNode; paragraph?: boolean }) {
  const link = (
    <Link asChild>
      <RouterLink href={href}>{children}</RouterLink>
    </Link>
  );
  return paragraph ? (
    <Text as="p" size="2" align="center" mt="3">
      {link}
    </Text>
  ) : (
    <Text size="2" align="center">
      {link}
    </Text>
  );
}
