// The state of the live connection (SignalR hub), visible wherever a screen updates live: the
// device tab's message stream and the Device Testing tab. A failure says the spec's words
// ('Failed to establish connection for live updates.'); reconnecting happens on its own.
import { Badge, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';

export type LiveState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

const LABEL: Record<LiveState, string> = {
  connecting: 'Connecting…',
  connected: 'Live',
  reconnecting: 'Reconnecting…',
  failed: MSG.liveConnectionFailed,
  idle: 'Not live',
};

export function LiveBadge({ state }: { state: LiveState }) {
  if (state === 'failed')
    return (
      <Text size="2" color="red" role="alert" data-testid="live-state" data-state={state}>
        {LABEL.failed}
      </Text>
    );
  return (
    <Badge
      size="2"
      color={state === 'connected' ? 'green' : state === 'idle' ? 'gray' : 'amber'}
      role="status"
      aria-live="polite"
      data-testid="live-state"
      data-state={state}
    >
      {LABEL[state]}
    </Badge>
  );
}
