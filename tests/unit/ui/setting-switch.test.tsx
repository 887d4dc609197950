// Every switch of the product is the one SettingSwitch, which keeps the focus while its change
// saves (tests/e2e/consistency.e2e.ts presses Space twice on every switch in Chromium).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Theme } from '@radix-ui/themes';
import { SettingSwitch } from '../../../src/app/ui/setting-switch';

const ROOT = join(__dirname, '../../../src/app');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx$/.test(n) ? [p] : [];
  });

describe('switches', () => {
  it('no screen uses a bare Radix Switch: every switch is SettingSwitch', () => {
    const bare = files(ROOT)
      .filter((p) => !p.endsWith('setting-switch.tsx'))
      .filter((p) => /import\s*\{[^}]*\bSwitch\b[^}]*\}\s*from\s*'@radix-ui\/themes'/.test(readFileSync(p, 'utf8')))
      .map((p) => relative(ROOT, p));
    expect(bare).toEqual([]);
  });

  it('while its change saves it stays enabled and focused, says it is busy and ignores Space', async () => {
    const change = vi.fn();
    const { rerender } = render(
      <Theme>
        <SettingSwitch aria-label="Feature" checked={false} onCheckedChange={change} />
      </Theme>,
    );
    const user = userEvent.setup();
    const toggle = screen.getByRole('switch', { name: 'Feature' });
    toggle.focus();
    await user.keyboard(' ');
    expect(change).toHaveBeenCalledWith(true);
    rerender(
      <Theme>
        <SettingSwitch aria-label="Feature" checked={true} busy onCheckedChange={change} />
      </Theme>,
    );
    expect(toggle).toBeEnabled();
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-busy', 'true');
    await user.keyboard(' ');
    expect(change).toHaveBeenCalledTimes(1);
    rerender(
      <Theme>
        <SettingSwitch aria-label="Feature" checked={true} readOnly onCheckedChange={change} />
      </Theme>,
    );
    expect(toggle).toBeDisabled();
  });
});
