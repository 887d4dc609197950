// Controls that change something keep the keyboard focus while the change runs and after the page
// re-renders: every button that can be busy or disabled is the one ActionButton (or uses its
// useFocusSafeDisabled), every checkbox the ActionCheckbox, every row action that removes its row
// hands the focus to the row now in its place. The walk over src/app finds any control that would
// drop the focus; the rest shows, in the DOM, what the user's keyboard meets.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Theme } from '@radix-ui/themes';
import { ActionButton, ActionCheckbox } from '../../../src/app/ui/action-button';
import { Pagination } from '../../../src/app/ui/pagination';
import { keepRowFocus } from '../../../src/app/ui/row-focus';

afterEach(cleanup);

const ROOT = join(__dirname, '../../../src/app');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx$/.test(n) ? [p] : [];
  });

/** Each JSX opening tag `<Name …>` of a source, with its line. */
function openingTags(src: string, name: string): { line: number; tag: string }[] {
  const out: { line: number; tag: string }[] = [];
  const re = new RegExp(`<${name}[\\s>]`, 'g');
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let depth = 0;
    let k = m.index + name.length + 1;
    for (; k < src.length; k++) {
      const c = src[k];
      if (c === '{') depth++;
      else if (c === '}') depth--;
      else if (c === '>' && depth === 0 && src[k - 1] !== '=') break;
    }
    out.push({ line: src.slice(0, m.index).split('\n').length, tag: src.slice(m.index, k + 1) });
  }
  return out;
}

// A plain button whose `disabled` never changes while it may hold the focus (an account that can
// never be chosen), with the reason.
const STATIC_DISABLED = new Set(['features/auth/sso-views.tsx']);
// A `disabled` that follows a running change (it would drop the focus of the field that has it).
const PENDING = /disabled=\{[^}]*(isPending|isSubmitting|saving|busy\b|pending\b)/;

describe('every control keeps the focus after a change', () => {
  const sources = files(ROOT).map((p) => ({ file: relative(ROOT, p), src: readFileSync(p, 'utf8') }));

  it('no Radix Button is loading or disabled: those are ActionButton', () => {
    const found = sources
      .filter((s) => s.file !== 'ui/action-button.tsx')
      .flatMap(({ file, src }) =>
        openingTags(src, 'Button')
          .filter((t) => /\s(loading|disabled)=/.test(t.tag))
          .map((t) => `${file}:${t.line}`),
      );
    expect(found).toEqual([]);
  });

  it('no plain button is disabled except through useFocusSafeDisabled', () => {
    const found = sources
      .filter((s) => !STATIC_DISABLED.has(s.file))
      .flatMap(({ file, src }) =>
        openingTags(src, 'button')
          .filter((t) => /\sdisabled=/.test(t.tag))
          .map((t) => `${file}:${t.line}`),
      );
    expect(found).toEqual([]);
  });

  it('no bare Radix Checkbox: every checkbox that changes something is ActionCheckbox', () => {
    const bare = sources
      .filter((s) => s.file !== 'ui/action-button.tsx')
      .filter(({ src }) => /import\s*\{[^}]*\bCheckbox\b[^}]*\}\s*from\s*'@radix-ui\/themes'/.test(src))
      .map((s) => s.file);
    expect(bare).toEqual([]);
  });

  it('no field, select or button is disabled while a change runs', () => {
    const found = sources
      .filter((s) => s.file !== 'ui/action-button.tsx' && s.file !== 'ui/setting-switch.tsx')
      .flatMap(({ file, src }) =>
        src
          .split('\n')
          .map((l, i) => [l, i + 1] as const)
          .filter(([l]) => PENDING.test(l) && !/<ActionButton|<SettingSwitch|<ActionCheckbox/.test(l))
          .map(([, n]) => `${file}:${n}`),
      );
    // An ActionButton's own `disabled` keeps the focus; anything else listed here would drop it.
    const notAction = found.filter((where) => {
      const [file, line] = where.split(':');
      const src = sources.find((s) => s.file === file)!.src;
      const before = src.split('\n').slice(0, Number(line)).join('\n');
      const lastOpen = before.lastIndexOf('<');
      return !/^<ActionButton\b/.test(before.slice(lastOpen));
    });
    expect(notAction).toEqual([]);
  });
});

describe('ActionButton', () => {
  it('busy: the spinner shows, it stays enabled and focused, says it is busy and ignores Space', async () => {
    const save = vi.fn();
    const view = (busy: boolean) => (
      <Theme>
        <ActionButton busy={busy} onClick={save}>
          Save
        </ActionButton>
      </Theme>
    );
    const { rerender } = render(view(false));
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Save' });
    button.focus();
    await user.keyboard(' ');
    expect(save).toHaveBeenCalledTimes(1);
    rerender(view(true));
    expect(button).toBeEnabled();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard(' ');
    expect(save).toHaveBeenCalledTimes(1);
    rerender(view(false));
    await user.keyboard(' ');
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('a busy submit button does not submit its form again (Enter in a field)', async () => {
    const submit = vi.fn((e: React.FormEvent) => e.preventDefault());
    render(
      <Theme>
        <form onSubmit={submit}>
          <input aria-label="Name" />
          <ActionButton type="submit" busy>
            Save
          </ActionButton>
        </form>
      </Theme>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submit).not.toHaveBeenCalled();
  });

  it('disabled while it holds the focus (a saved form is clean again): focused, aria-disabled, inert; natively disabled once left', async () => {
    const save = vi.fn();
    const view = (disabled: boolean) => (
      <Theme>
        <ActionButton disabled={disabled} onClick={save}>
          Save
        </ActionButton>
        <button type="button">Next</button>
      </Theme>
    );
    const { rerender } = render(view(false));
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Save' });
    button.focus();
    rerender(view(true));
    expect(button).toHaveFocus();
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard(' ');
    expect(save).not.toHaveBeenCalled();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
    expect(button).toBeDisabled();
  });
});

describe('ActionCheckbox', () => {
  it('while its change saves it stays enabled and focused and ignores Space; readOnly disables it', async () => {
    const change = vi.fn();
    const view = (p: { checked: boolean; busy?: boolean; readOnly?: boolean }) => (
      <Theme>
        <ActionCheckbox aria-label="Plan followed" onCheckedChange={change} {...p} />
      </Theme>
    );
    const { rerender } = render(view({ checked: false }));
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', { name: 'Plan followed' });
    box.focus();
    await user.keyboard(' ');
    expect(change).toHaveBeenCalledWith(true);
    rerender(view({ checked: true, busy: true }));
    expect(box).toBeEnabled();
    expect(box).toHaveFocus();
    await user.keyboard(' ');
    expect(change).toHaveBeenCalledTimes(1);
    rerender(view({ checked: true, readOnly: true }));
    expect(box).toBeDisabled();
  });
});

describe('Pagination', () => {
  it('Next page pressed to the last page, and the list loading, keep the focus on the button', async () => {
    let loaded = () => {};
    function List() {
      const [page, setPage] = useState(1);
      const [loading, setLoading] = useState(false);
      loaded = () => setLoading(false);
      return (
        <Pagination
          page={page}
          pageSize={10}
          totalCount={30}
          disabled={loading}
          onPageChange={(p) => {
            setPage(p);
            setLoading(true);
          }}
        />
      );
    }
    render(<List />);
    const user = userEvent.setup();
    const next = screen.getByRole('button', { name: 'Next page' });
    next.focus();
    await user.keyboard('{Enter}');
    // loading page 2: every page button waits, and Next still holds the focus
    expect(next).toHaveFocus();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    act(() => loaded());
    expect(next).not.toHaveAttribute('aria-disabled');
    await user.keyboard('{Enter}');
    act(() => loaded());
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    // the last page: Next has nothing to do, and still holds the focus
    expect(next).toHaveFocus();
    expect(next).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('keepRowFocus', () => {
  function Rows({ initial }: { initial: string[] }) {
    const [names, setNames] = useState(initial);
    return (
      <div>
        <button type="button">New</button>
        {names.length ? (
          <table>
            <tbody>
              {names.map((n) => (
                <tr key={n}>
                  <td>{n}</td>
                  <td>
                    <button type="button">Edit {n}</button>
                    <button
                      type="button"
                      onClick={(e) => {
                        const restore = keepRowFocus(e.currentTarget);
                        setTimeout(() => {
                          setNames((all) => all.filter((x) => x !== n));
                          restore();
                        }, 10);
                      }}
                    >
                      Delete {n}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>None left.</p>
        )}
      </div>
    );
  }

  it('a deleted row hands the focus to the same action of the next row, else the one before, else what held the list', async () => {
    render(<Rows initial={['Alpha', 'Bravo', 'Charlie']} />);
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Delete Bravo' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Charlie' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Alpha' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByText('None left.')).toBeVisible());
    await waitFor(() => expect(screen.getByRole('button', { name: 'New' })).toHaveFocus());
  });

  it('never takes the focus from where the user moved it', async () => {
    render(<Rows initial={['Alpha', 'Bravo']} />);
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Delete Alpha' }).focus();
    await user.keyboard('{Enter}');
    act(() => screen.getByRole('button', { name: 'New' }).focus());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Alpha' })).toBeNull());
    await new Promise((r) => setTimeout(r, 60));
    expect(screen.getByRole('button', { name: 'New' })).toHaveFocus();
  });
});
