// A call recording or voice memo (spec §7, §8): Play fetches the audio (the request carries the
// session's token, so the <audio> element plays an object URL of the blob) and Download saves it.
// An unavailable recording shows its reason beside a play button that stays focusable (aria-disabled),
// as its tooltip and its accessible description (§4).
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Button, Flex, Text } from '@radix-ui/themes';
import { toast } from '../../ui/toast';
import { saveBlob } from '../../api/devices';
import { ActionButton } from '../../ui/action-button';

export type AudioClipProps = {
  label: string;
  /** Loads the audio through the query cache: qc => qc.fetchQuery(recordingQueryForCall(...)). */
  fetchBlob: (qc: QueryClient) => Promise<Blob>;
  fileName: string;
  failedMessage: string;
  /** Set when the audio cannot be had: the play button is disabled with this as its tooltip. */
  unavailableReason?: string | null;
  /** After a download was saved (calls log it: 'Call recording downloaded.'). */
  onDownloaded?: () => unknown;
};

export function AudioClip({ label, fetchBlob, fileName, failedMessage, unavailableReason, onDownloaded }: AudioClipProps) {
  const qc = useQueryClient();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  const load = async () => {
    setBusy(true);
    try {
      return await fetchBlob(qc);
    } catch {
      toast.error(failedMessage);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const play = async () => {
    const blob = await load();
    if (blob) setUrl(URL.createObjectURL(blob));
  };
  const download = async () => {
    const blob = await load();
    if (!blob) return;
    saveBlob(blob, fileName);
    await onDownloaded?.();
  };

  if (unavailableReason != null) {
    return (
      <Flex gap="2" align="center" className="ar-audio">
        {/* aria-disabled, not disabled: the button stays focusable, so the keyboard reaches its reason. */}
        <span title={unavailableReason} className="ar-audio__disabled">
          <Button
            size="1"
            variant="soft"
            color="gray"
            aria-disabled="true"
            aria-label={`Play ${label}`}
            aria-description={unavailableReason}
            title={unavailableReason}
            onClick={(e) => e.preventDefault()}
          >
            ▶ Play
          </Button>
        </span>
        <Text size="1" color="gray">
          {unavailableReason}
        </Text>
      </Flex>
    );
  }
  return (
    <Flex gap="2" align="center" className="ar-audio" wrap="wrap">
      {url ? (
        <audio controls autoPlay src={url} aria-label={label} className="ar-audio__player" />
      ) : (
        <ActionButton size="1" variant="soft" busy={busy} onClick={() => void play()} aria-label={`Play ${label}`}>
          ▶ Play
        </ActionButton>
      )}
      <ActionButton size="1" variant="ghost" disabled={busy} onClick={() => void download()} aria-label={`Download ${label}`}>
        Download
      </ActionButton>
    </Flex>
  );
}
