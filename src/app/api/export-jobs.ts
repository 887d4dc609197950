// A running export or CSV import as a job of the server's pool: the call carries an id the client
// chose, its progress (rows written of total) is polled while it runs, Cancel aborts it, and the
// download is saved when the file is complete (an export) or the import's result handed on. Used by
// every list with an Export button and by the CSV imports, with ExportProgressBar
// (src/app/ui/export-progress.tsx) showing the job; an export's file name stays the page's (the
// spec's label and a timestamp).
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../shared/messages';
import type { ExportProgress } from '../../shared/schemas/exports';
import { cancelExport, exportProgress, EXPORT_POLL_MS, type ExportCall } from './exports';
import { saveBlob } from './devices';
import { errorStatus } from './query-client';
import { toast } from '../ui/toast';

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
  /** what the bar says: rows exported (default) or rows imported */
  kind?: 'export' | 'import';
};

/** A CSV import as a job: `mutate(file)` uploads it; the same progress and Cancel as an export. */
export type ImportJob = Omit<ExportJob, 'mutate'> & { mutate: (file: File) => void; kind: 'import' };

/**
 * Runs a job of the server's pool: the call carries an id the client chose, its progress is polled
 * while the call runs, and cancel aborts the call and asks the server to stop the job.
 */
function useJob<I, T>(
  run: (input: I, o: ExportCall) => Promise<T>,
  done: (res: T) => unknown,
  failed: (err: unknown, cancelled: boolean) => unknown,
): { mutate: (input: I) => void; isPending: boolean; progress: ExportProgress | null; cancel: () => void } {
  const [job, setJob] = useState<{ id: string; progress: ExportProgress | null } | null>(null);
  const latest = useRef({ run, done, failed });
  useEffect(() => {
    latest.current = { run, done, failed };
  });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const mutate = (input: I) => {
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
    const { run: start, done: ok, failed: fail } = latest.current;
    void start(input, { signal: ac.signal, exportId: id })
      .then((res) => ok(res))
      .catch((err: unknown) => fail(err, ac.signal.aborted))
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

/**
 * Runs `start` as an export job: polls its progress, saves the file as `fileName()` when complete,
 * toasts `failMessage` (or the server's 429 message) when it fails, and can be cancelled.
 */
export function useExportJob(start: (o: ExportCall) => Promise<Blob>, fileName: () => string, failMessage: string): ExportJob {
  const names = useRef({ fileName, failMessage });
  useEffect(() => {
    names.current = { fileName, failMessage };
  });
  const job = useJob(
    (_: undefined, o: ExportCall) => start(o),
    (blob) => saveBlob(blob, names.current.fileName()),
    async (err, cancelled) => {
      if (cancelled) toast.info(MSG.exportCancelled);
      else toast.error(await failureMessage(err, names.current.failMessage));
    },
  );
  return { ...job, mutate: () => job.mutate(undefined), kind: 'export' };
}

/**
 * Runs a CSV import as a job: `start(file, o)` uploads the file with the job's id; `onSuccess` gets
 * the server's answer, `onError` its refusal. Cancelled: nothing is imported, and a toast says so.
 */
export function useImportJob<T>(
  start: (file: File, o: ExportCall) => Promise<T>,
  on: { onSuccess: (res: T) => unknown; onError: (err: unknown) => unknown },
): ImportJob {
  const job = useJob(start, on.onSuccess, (err, cancelled) => (cancelled ? toast.info(MSG.importCancelled) : on.onError(err)));
  return { ...job, kind: 'import' };
}
