// Panes laid out with react-resizable-panels v4 (Group / Panel / Separator). The separators are
// WAI-ARIA window splitters (role=separator, aria-valuenow/min/max, arrows resize by 5 %,
// Home/End to the limits — built into the library); sizes are saved when the user resizes.
import { Fragment, useEffect } from 'react';
import { Group, Panel, Separator, useGroupRef, type Layout } from 'react-resizable-panels';
import type { LayoutNode, WorkspaceState } from './model';
import { MIN_PANE_SIZE, paneOrder } from './model';
import { setSplitSizes } from './actions';
import { PaneView } from './pane-view';

type SplitNode = Extract<LayoutNode, { type: 'split' }>;

export function LayoutView({ node, state }: { node: LayoutNode; state: WorkspaceState }) {
  if (node.type === 'pane') {
    const order = paneOrder(state);
    const pane = state.panes[node.id];
    if (!pane) return null;
    return <PaneView pane={pane} index={order.indexOf(node.id)} paneCount={order.length} focused={state.focusedPaneId === node.id} />;
  }
  // Remount the group when its children change: its panels are then all new, with their sizes.
  return <SplitView key={node.children.map((c) => c.id).join('|')} node={node} state={state} />;
}

function SplitView({ node, state }: { node: SplitNode; state: WorkspaceState }) {
  const groupRef = useGroupRef();
  const layout: Layout = Object.fromEntries(node.children.map((c, i) => [c.id, node.sizes[i]]));

  // Sizes changed by commands (grow/shrink pane) reach the group here.
  useEffect(() => {
    const g = groupRef.current;
    if (!g) return;
    const cur = g.getLayout();
    if (node.children.some((c, i) => Math.abs((cur[c.id] ?? 0) - node.sizes[i]) > 0.5)) g.setLayout(layout);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [node.sizes.join(',')]);

  return (
    <Group
      id={node.id}
      className="ws-split"
      orientation={node.orientation}
      groupRef={groupRef}
      defaultLayout={layout}
      onLayoutChanged={(next, meta) => {
        if (!meta.isUserInteraction) return;
        setSplitSizes(
          node.id,
          node.children.map((c) => next[c.id] ?? 0),
        );
      }}
    >
      {node.children.map((child, i) => (
        <Fragment key={child.id}>
          {i > 0 && (
            <Separator
              id={`${node.id}-sep-${i}`}
              className="ws-separator"
              data-orientation={node.orientation}
              aria-label={node.orientation === 'horizontal' ? 'Resize panes left and right' : 'Resize panes above and below'}
            />
          )}
          <Panel id={child.id} minSize={`${MIN_PANE_SIZE}%`} className="ws-panel">
            <LayoutView node={child} state={state} />
          </Panel>
        </Fragment>
      ))}
    </Group>
  );
}
