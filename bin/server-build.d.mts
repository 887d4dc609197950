export const root: string;
export const compiledMain: string;
export function serverBuildStale(): boolean;
export function ensureServerBuilt(say?: (line: string) => void): 'current' | 'stale' | 'compiled';
