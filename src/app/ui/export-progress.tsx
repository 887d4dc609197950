// A running export as the user sees it: a progress bar of rows written of total (polled from the
// server's export job), a Cancel button, and the download when the file is complete. Used by every
// list with an Export button; the file name stays the page's (the spec's label and a timestamp).
import { useEffect, useRef, useState } from 'react';
import { Button, Flex, Progress, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';
import type { ExportProgress } from '../../shared/schemas/exports';
import { cancelExport, exportProgress, EXPORT_POLL_MS, type ExportCall } from '../api/exports';
import { saveBlob } from '../api/devices';
import { errorStatus } from '../api/query-client';
import { toast } from './toast';

/** The message of a refused export: a blob answer carries the error body as a Blob. */
async function failureMessage(err: unknown, fallback: string): Promise<string> {
  const status = errorStatus(err);
  if (status === 403) return MSG.forbidden;
  if (status === 429) {
    try {
      const data = (err as { data?: unknown }).data;
      const body = JSON.parse(data instanceof Blob ? await data.text() : JSON.stringify(data)) as { Content?: { Message?: string } };
      return body.Content?.Message ?? MSG.exportQueueFull;
    } catch {
      return MSG.exportQueueFull;
    }
  }
  return fallback;
}

export type ExportJob = {
  /** Starts the export (ignored while one runs). */
  mutate: () => void;
  isPending: boolean;
  progress: ExportProgress | null;
  cancel: () => void;
};

/**
 * Runs `start` as an export job: polls its progress, saves the file as `fileName()` when complete,
 * toasts `failMessage` (or the server's 429 message) when it fails, and can be cancelled.
 */
export function useExportJob(start: (o: ExportCall) => Promise<Blob>, fileName: () => string, failMessage: string): ExportJob {
  const [job, setJob] = useState<{ id: string; progress: ExportProgress | null } | null>(null);
  const latest = useRef({ start, fileName, failMessage });
  useEffect(() => {
    latest.current = { start, fileName, failMessage };
  });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const mutate = () => {
    if (abort.current) return;
    const id = crypto.randomUUID();
    const ac = new AbortController();
    abort.current = ac;
    setJob({ id, progress: null });
    const timer = setInterval(() => {
      exportProgress(id, ac.signal).then(
        (p) => setJob((j) => (j?.id === id ? { id, progress: p } : j)),
        () => {},
      );
    }, EXPORT_POLL_MS);
    const { start: run, fileName: name, failMessage: failed } = latest.current;
    void run({ signal: ac.signal, exportId: id })
      .then((blob) => saveBlob(blob, name()))
      .catch(async (err: unknown) => {
        if (ac.signal.aborted) toast.info(MSG.exportCancelled);
        else toast.error(await failureMessage(err, failed));
      })
      .finally(() => {
        clearInterval(timer);
        if (abort.current === ac) abort.current = null;
        setJob((j) => (j?.id === id ? null : j));
      });
  };
  const cancel = () => {
    const id = job?.id;
    abort.current?.abort();
    if (id) void cancelExport(id).catch(() => {});
  };
  return { mutate, isPending: job !== null, progress: job?.progress ?? null, cancel };
}

/** Rows written of total while an export runs, with Cancel; nothing otherwise. */
export function ExportProgressBar({ job }: { job: ExportJob }) {
  if (!job.isPending) return null;
  const p = job.progress;
  const counted = p && p.Total !== null && p.State !== 'queued';
  const text = !p ? MSG.exportStarting : p.State === 'queued' ? MSG.exportQueued : MSG.exportProgress(p.Written, p.Total ?? 0);
  const rows = counted ? (p.Total ?? 0) - p.Omitted : 0;
  const pct = rows > 0 ? Math.min(100, Math.round((p!.Written / rows) * 100)) : 0;
  return (
    <Flex align="center" gap="2" role="status" data-testid="export-progress">
      <Progress value={pct} max={100} style={{ width: 140 }} aria-label="Export progress" />
      <Text size="2" color="gray">
        {text}
      </Text>
      <Button size="1" variant="soft" color="gray" onClick={job.cancel}>
        Cancel
      </Button>
    </Flex>
  );
}
