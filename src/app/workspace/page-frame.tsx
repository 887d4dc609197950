// The frame of a tab's page: the title (h1) with the page's actions on its right, then the page,
// filling the tab (list-page.css `lw-list-page`). The list pages, the monthly reports, a
// customer's pages and the Bulk Update page use it.
import type { ReactNode, Ref } from 'react';
import { Flex, Heading } from '@radix-ui/themes';
import './list-page.css';

export function PageFrame({
  title,
  actions,
  className,
  rootRef,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  /** The page's own class (beside the frame's). */
  className?: string;
  rootRef?: Ref<HTMLDivElement>;
  children: ReactNode;
}) {
  return (
    <div className={className ? `lw-list-page ${className}` : 'lw-list-page'} ref={rootRef}>
      <Flex align="center" justify="between" gap="3" wrap="wrap">
        <Heading as="h1" size="5">
          {title}
        </Heading>
        <Flex gap="2" align="center" wrap="wrap">
          {actions}
        </Flex>
      </Flex>
      {children}
    </div>
  );
}
