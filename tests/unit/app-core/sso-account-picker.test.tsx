// The single-sign-on account picker tells two accounts with the same customer name apart: their
// e-mail comes first.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Theme } from '@radix-ui/themes';
import { SsoAccountPicker, sharedCustomerNames } from '../../../src/app/features/auth/sso-views';

afterEach(cleanup);

const accounts = [
  { customerName: 'Acme Care', emailAddress: 'ann@acme.example', canSelect: true },
  { customerName: 'Acme Care', emailAddress: 'ann.admin@acme.example', canSelect: true },
  { customerName: 'Brook Homes', emailAddress: 'ann@brook.example', canSelect: true },
];

describe('SSO account picker', () => {
  it('accounts sharing a customer name lead with their e-mail; a unique one with its name', () => {
    expect([...sharedCustomerNames(accounts)]).toEqual(['Acme Care']);
    render(
      <Theme>
        <SsoAccountPicker accounts={accounts} onChoose={() => {}} onBack={() => {}} />
      </Theme>,
    );
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names.slice(0, 3)).toEqual(['ann@acme.exampleAcme Care', 'ann.admin@acme.exampleAcme Care', 'Brook Homesann@brook.example']);
    expect(new Set(names).size).toBe(names.length);
  });
});
