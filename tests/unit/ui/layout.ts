// jsdom has no layout: give scroll containers (role=grid) a height and make scrollTo move
// scrollTop and fire 'scroll', so the virtualiser computes a real window of rows.
import { vi } from 'vitest';
import { HEADER_HEIGHT } from '../../../src/app/ui/data-table/data-table';

export function stubGridLayout(height = 440, width = 1200) {
  const ch = vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return this.getAttribute('role') === 'grid' ? height : 0;
  });
  const cw = vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return this.getAttribute('role') === 'grid' ? width : 0;
  });
  // Content height: the header plus the virtual body's declared height.
  const sh = vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
    if (this.getAttribute('role') !== 'grid') return 0;
    const body = this.querySelector<HTMLElement>('.lw-dt__body');
    return HEADER_HEIGHT + (body ? parseFloat(body.style.height) || 0 : 0);
  });
  const proto = Element.prototype as unknown as { scrollTo?: unknown };
  const had = 'scrollTo' in Element.prototype;
  const original = proto.scrollTo;
  proto.scrollTo = function (this: Element, opts: ScrollToOptions | number, y?: number) {
    const top = typeof opts === 'number' ? (y ?? 0) : (opts.top ?? this.scrollTop);
    this.scrollTop = top;
    this.dispatchEvent(new Event('scroll'));
  };
  return () => {
    ch.mockRestore();
    sh.mockRestore();
    cw.mockRestore();
    if (had) proto.scrollTo = original;
    else delete proto.scrollTo;
  };
}
