// What a record's tab shows of the others who work on it (the page passes the state in; see
// api/record-live.ts): a small grey line "Also open: Alice Smith" while others have it open, and
// after someone else's change a quiet bar "Changed by NAME — reload" with a Reload button (reached
// with Tab like any button). The bar never changes the page's data or a form by itself: the page
// reloads only when the user asks.
import { Button, Flex, Text } from '@radix-ui/themes';
import { RECORD_LIVE_TEXT } from '../../shared/messages';
import './record-live-bar.css';

export type RecordLiveBarProps = {
  changedBy: string | null;
  present: readonly string[];
  onReload: () => void;
};

export function RecordLiveBar({ changedBy, present, onReload }: RecordLiveBarProps) {
  return (
    <div className="record-live" role="status" aria-live="polite">
      {present.length > 0 && (
        <Text as="p" size="1" color="gray" className="record-live__presence">
          {RECORD_LIVE_TEXT.alsoOpen(present)}
        </Text>
      )}
      {changedBy && (
        <Flex className="record-live__changed" align="center" gap="3">
          <Text size="2">{RECORD_LIVE_TEXT.changedBy(changedBy)}</Text>
          <Button size="1" variant="soft" color="gray" onClick={onReload}>
            {RECORD_LIVE_TEXT.reload}
          </Button>
        </Flex>
      )}
    </div>
  );
}
