// A running export or CSV import as the user sees it: a progress bar of rows written of total, a
// Cancel button, and nothing once the job is over. The job itself (polling, cancel, the download)
// is useExportJob / useImportJob in src/app/api/export-jobs.ts.
import { Button, Flex, Progress, Text } from '@radix-ui/themes';
import { MSG } from '../../shared/messages';
import type { ExportProgress } from '../../shared/schemas/exports';

/** What the bar shows of a job: whether it runs, its last polled progress, and how to cancel it. */
export type JobProgress = {
  isPending: boolean;
  progress: ExportProgress | null;
  cancel: () => void;
  /** what the bar says: rows exported (default) or rows imported */
  kind?: 'export' | 'import';
};

/** Rows written of total while an export (or import) runs, with Cancel; nothing otherwise. */
export function ExportProgressBar({ job }: { job: JobProgress }) {
  if (!job.isPending) return null;
  const p = job.progress;
  const importing = job.kind === 'import';
  const counted = p && p.Total !== null && p.State !== 'queued';
  // An import's file being parsed: rows read so far of an estimate, before its count is known.
  const reading = importing && !counted && p?.Parsed ? p.Parsed : null;
  const text = importing
    ? counted
      ? MSG.importProgress(p.Written, p.Total ?? 0)
      : reading
        ? MSG.importReadingRows(reading.Rows, reading.Estimate)
        : MSG.importReading
    : !p || (p.State !== 'queued' && p.Total === null)
      ? MSG.exportStarting
      : p.State === 'queued'
        ? MSG.exportQueued
        : MSG.exportProgress(p.Written, p.Total ?? 0);
  const rows = counted ? (p.Total ?? 0) - p.Omitted : 0;
  const pct = reading
    ? reading.Estimate > 0
      ? Math.min(100, Math.round((reading.Rows / reading.Estimate) * 100))
      : 0
    : rows > 0
      ? Math.min(100, Math.round((p!.Written / rows) * 100))
      : 0;
  return (
    <Flex align="center" gap="2" role="status" data-testid={importing ? 'import-progress' : 'export-progress'}>
      <Progress value={pct} max={100} style={{ width: 140 }} aria-label={importing ? 'Import progress' : 'Export progress'} />
      <Text size="2" color="gray">
        {text}
      </Text>
      <Button size="1" variant="soft" color="gray" onClick={job.cancel}>
        Cancel
      </Button>
    </Flex>
  );
}
