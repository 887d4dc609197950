// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { openRowProps } from '../../../src/app/workspace/actions';

describe('openRowProps', () => {
  const hrefOf = (r: { id: string }) => `/asset-management/${r.id}`;
  it('rows open and are links when allowed', () => {
    const p = openRowProps(true, hrefOf);
    expect(p.canOpen()).toBe(true);
    expect(p.rowHref({ id: 'd1' })).toBe('/asset-management/d1');
  });
  it('without the permission rows neither open nor link', () => {
    const p = openRowProps(false, hrefOf);
    expect(p.canOpen()).toBe(false);
    expect(p.rowHref({ id: 'd1' })).toBeNull();
  });
});
