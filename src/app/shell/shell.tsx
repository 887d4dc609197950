// The signed-in frame: side navigation on the left, the top bar above the workspace; it keeps the
// tab's hub connection so provider setting changes take effect without a reload.
import type { ReactNode } from 'react';
import { SideNav } from './side-nav';
import { TopBar } from './top-bar';
import { useSettingsLive } from '../api/live';

export function Shell({ children }: { children: ReactNode }) {
  // provider setting changes arrive over the hub while signed in
  useSettingsLive();
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
