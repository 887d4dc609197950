// The signed-in frame: side navigation on the left, the top bar above the workspace.
import type { ReactNode } from 'react';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';

export function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <a className="skip-link" href="#workspace-main">
        Skip to content
      </a>
      <SideNav />
      <div className="shell-main">
        <TopBar />
        <main id="workspace-main" className="shell-content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
