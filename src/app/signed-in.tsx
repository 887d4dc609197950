// The signed-in part of the client as one module, loaded with one `import()` after sign-in (and
// fetched ahead while the sign-in page is idle): the rest of Radix's stylesheet, the shell, the
// workspace and the confirm host; the command registry comes from the app root (src/app/app.tsx,
// the one place that takes it). The build puts this module, the registry and everything they
// import statically (and the sign-in page does not) in one chunk (bin/workspace-chunk.ts), so a
// start evaluates a few scripts for the workspace, not one per shared module.
// Radix's workspace stylesheet first, so it is linked before the workspace's own (which may
// override Radix's rules).
import './workspace-styles';
import { Shell } from './shell/shell';
import { Workspace, prefetchLikelyViews, preloadInitialViews } from './workspace/workspace';
import type { Command } from './keyboard/define';
import { ConfirmHost } from './ui/confirm-dialog';

export { prefetchLikelyViews, preloadInitialViews };

export function SignedInWorkspace({ commands }: { commands: readonly Command[] }) {
  return (
    <>
      <Shell>
        <Workspace commands={commands} />
      </Shell>
      <ConfirmHost />
    </>
  );
}
