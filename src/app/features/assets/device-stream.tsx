// The device tab's Message Stream column (spec document 2 §2 "Message Stream", §4 "Device detail
// live updates", §8 messages): the device's messages newest first (GET /devices/get-message-stream
// by IMEI, continuation tokens, 'Load more'), new messages arriving live at the top through the
// hub, the live connection's state, and the detailed message dialog (GET
// /devices/get-detailed-message: the message, its scalar properties, the raw message last).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Button, Callout, Card, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import { DialogCloseButton } from '../../shell/dialog-close-button';
import { LiveBadge, type LiveState } from '../../ui/live-badge';
import { errorMessage } from '../../api/query-client';
import { detailedMessageQuery, messageStreamQuery } from '../../api/live';
import { MSG } from '../../../shared/messages';
import type { DeviceMessageDto } from '../../../shared/schemas/live';
import { formatInstant } from '../../../shared/device-config-format';
import { batteryText, DASH, mergeStream, scalarProperties, showLoadMore, signalText } from './stream-model';
import { ActionButton } from '../../ui/action-button';

export const STREAM_TEXTS = {
  title: 'Message Stream',
  loadMore: 'Load more',
  detailsTitle: 'Device message',
  properties: 'Properties',
  rawMessage: 'Raw message',
} as const;

/**
 * The stream of one device. `live`: messages the hub delivered since the stream loaded (newest
 * first); `state`: the hub connection's state, shown in the header.
 */
export function DeviceStream({ identity, live, state }: { identity: string; live: readonly DeviceMessageDto[]; state: LiveState }) {
  const stream = useInfiniteQuery(messageStreamQuery(identity));
  const [open, setOpen] = useState<DeviceMessageDto | null>(null);
  const data = stream.data;
  const pages = useMemo(() => data?.pages ?? [], [data]);
  const messages = useMemo(
    () =>
      mergeStream(
        live,
        pages.map((p) => p.Items),
      ),
    [live, pages],
  );
  const loaded = pages.reduce((n, p) => n + p.Items.length, 0);
  const token = pages.at(-1)?.ContinuationToken ?? null;
  const listRef = useRef<HTMLOListElement>(null);
  const [newest, setNewest] = useState<string | null>(null);
  // A live message on top is announced and highlighted briefly.
  const top = live[0]?.MessageId ?? null;
  useEffect(() => {
    if (!top) return;
    setNewest(top);
    const t = setTimeout(() => setNewest(null), 3000);
    return () => clearTimeout(t);
  }, [top]);

  return (
    <Card size="2" asChild>
      <section aria-labelledby="device-stream-h" className="lw-stream">
        <Flex align="center" justify="between" gap="2" mb="2" wrap="wrap">
          <Heading as="h2" size="3" id="device-stream-h">
            {STREAM_TEXTS.title}
          </Heading>
          <LiveBadge state={state} />
        </Flex>
        {stream.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text size="2">Loading…</Text>
          </Flex>
        ) : stream.isError && !pages.length ? (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>{errorMessage(stream.error)}</Callout.Text>
          </Callout.Root>
        ) : messages.length === 0 ? (
          <Text size="2" color="gray" data-testid="stream-empty">
            {MSG.noMessagesFromDevice}
          </Text>
        ) : (
          <ol className="lw-stream__list" aria-label="Device messages" ref={listRef}>
            {messages.map((m) => (
              <li key={m.MessageId} data-new={m.MessageId === newest || undefined}>
                <button type="button" className="lw-stream__row" onClick={() => setOpen(m)} aria-label={`${m.Message}, ${formatInstant(m.Date, true)}`}>
                  <span className="lw-stream__msg">{m.Message}</span>
                  <span className="lw-stream__date">{formatInstant(m.Date, true)}</span>
                  <span className="lw-stream__meta">
                    Signal {signalText(m.Signal)} · Battery {batteryText(m.Battery)}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
        {/* Screen readers hear a live message arrive. */}
        <span className="lw-sr-only" aria-live="polite" data-testid="stream-announce">
          {newest && live[0] ? `New message: ${live[0].Message}` : ''}
        </span>
        {stream.isFetchNextPageError && (
          <Text as="p" size="2" color="red" role="alert" mt="2">
            {MSG.streamFailed}
          </Text>
        )}
        {showLoadMore(loaded, token) && (
          <Flex justify="center" mt="2">
            <ActionButton variant="soft" onClick={() => void stream.fetchNextPage()} busy={stream.isFetchingNextPage}>
              {STREAM_TEXTS.loadMore}
            </ActionButton>
          </Flex>
        )}
        <MessageDialog identity={identity} message={open} onClose={() => setOpen(null)} />
      </section>
    </Card>
  );
}

function MessageDialog({ identity, message, onClose }: { identity: string; message: DeviceMessageDto | null; onClose: () => void }) {
  const details = useQuery({
    ...detailedMessageQuery({
      identity,
      messageReceived: message?.Date ?? '',
      deviceType: String(message?.DeviceType.Id ?? ''),
      messageId: message?.MessageId ?? '',
    }),
    enabled: !!message,
  });
  const d = details.data;
  const props = useMemo(() => (d ? scalarProperties(d.MessageProperties) : []), [d]);
  return (
    <Dialog.Root open={!!message} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Content maxWidth="560px" aria-describedby={undefined}>
        <DialogCloseButton />
        <Dialog.Title>{STREAM_TEXTS.detailsTitle}</Dialog.Title>
        {message && (
          <dl className="lw-stream__details">
            <dt>Message</dt>
            <dd>{message.Message}</dd>
            <dt>Date</dt>
            <dd>{formatInstant(message.Date, true)}</dd>
            <dt>Received</dt>
            <dd>{formatInstant(message.Time, true)}</dd>
            <dt>Signal</dt>
            <dd>{signalText(message.Signal)}</dd>
            <dt>Battery</dt>
            <dd>{batteryText(message.Battery)}</dd>
            <dt>Device type</dt>
            <dd>{message.DeviceType.Name || DASH}</dd>
            <dt>Serial</dt>
            <dd>{message.Serial || DASH}</dd>
            <dt>Device identity</dt>
            <dd>{message.DeviceIdentity || DASH}</dd>
            <dt>Location</dt>
            <dd>{message.Location ? `${message.Location.Latitude.toFixed(5)}, ${message.Location.Longitude.toFixed(5)}` : DASH}</dd>
          </dl>
        )}
        {details.isPending ? (
          <Flex gap="2" align="center" role="status">
            <Spinner /> <Text size="2">Loading…</Text>
          </Flex>
        ) : details.isError ? (
          <Text size="2" color="red" role="alert">
            {errorMessage(details.error)}
          </Text>
        ) : (
          <>
            <Heading as="h3" size="2" mt="3" mb="1">
              {STREAM_TEXTS.properties}
            </Heading>
            {props.length ? (
              <dl className="lw-stream__details" aria-label={STREAM_TEXTS.properties}>
                {props.map(([k, v]) => (
                  <div key={k} className="lw-stream__pair">
                    <dt>{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <Text size="2">{DASH}</Text>
            )}
            <Heading as="h3" size="2" mt="3" mb="1">
              {STREAM_TEXTS.rawMessage}
            </Heading>
            <pre className="lw-stream__raw" aria-label={STREAM_TEXTS.rawMessage}>
              {d?.RawMessage || DASH}
            </pre>
          </>
        )}
        <Flex justify="end" mt="3">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              Close
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
