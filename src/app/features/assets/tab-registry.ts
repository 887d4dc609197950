// What a mounted tab offers the commands, by workspace tab id (the asset list's export and its
// serials, a device tab's actions): the tab registers it while it is mounted, a command reads the
// focused tab's. No DOM or React here, so the command modules (and the doc generator) can load it.
export function tabRegistry<T>() {
  const byTab = new Map<string, T>();
  return {
    /** Registers `value` for the tab; the function returned takes it off (unless a later one replaced it). */
    register(tabId: string, value: T): () => void {
      byTab.set(tabId, value);
      return () => {
        if (byTab.get(tabId) === value) byTab.delete(tabId);
      };
    },
    of: (tabId: string | undefined): T | undefined => (tabId ? byTab.get(tabId) : undefined),
  };
}
