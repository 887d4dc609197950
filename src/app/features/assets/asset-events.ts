// The link between the 'export assets' command and the asset list tabs: a mounted list registers
// its export; the command runs the focused tab's, or opens the list and asks it to export once it
// is there. No DOM or React here, so the command module (and the doc generator) can load it.
import { tabRegistry } from './tab-registry';

const exporters = tabRegistry<() => unknown>();
let pending = false;

export function registerAssetExport(tabId: string, run: () => unknown): () => void {
  if (pending) {
    pending = false;
    setTimeout(() => void run(), 0);
  }
  return exporters.register(tabId, run);
}

/** Runs the export of the list in `tabId`; false when that tab shows no asset list. */
export function runAssetExport(tabId: string | undefined): boolean {
  const run = exporters.of(tabId);
  if (!run) return false;
  void run();
  return true;
}

/** The next asset list that mounts starts its export (the command opened it for that). */
export function requestAssetExportOnOpen() {
  pending = true;
}

/**
 * The serial numbers of the devices an asset list shows (all its pages, at most the bulk list's
 * limit), for the 'put the listed devices on the bulk list' command; null when the user said no
 * or there is nothing to put. A mounted list registers how it collects them.
 */
export type CollectSerials = () => Promise<string[] | null>;
const collectors = tabRegistry<CollectSerials>();

export const registerAssetSerials = (tabId: string, collect: CollectSerials): (() => void) => collectors.register(tabId, collect);

/** The focused asset list's collector, if that tab shows one. */
export const assetSerials = (tabId: string | undefined): CollectSerials | undefined => collectors.of(tabId);
