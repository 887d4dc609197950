// Local command filtering for the palette: plain ranking over title, keywords, group and id. The
// words of a command's title rank above its keywords, and a contextual command (one of the focused
// page) only wins between equal matches: `>monthly` finds the monthly report before a command that
// merely lists "monthly" among its keywords.
// The server ranks records; commands are few, so this runs on every keystroke.
import type { Command } from '../keyboard/define';

function isSubsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (const ch of hay) if (ch === needle[i]) i++;
  return i === needle.length;
}

/** 0 = no match; higher is better. */
export function scoreCommand(cmd: Pick<Command, 'title' | 'keywords' | 'group' | 'id'>, query: string): number {
  const q = query.trim().toLowerCase();
  if (!q) return 1;
  const title = cmd.title.toLowerCase();
  if (title.startsWith(q)) return 100;
  if (title.split(/\s+/).some((w) => w.startsWith(q))) return 80;
  if (title.includes(q)) return 60;
  const hay = [cmd.title, ...(cmd.keywords ?? []), cmd.group, cmd.id].join(' ').toLowerCase();
  if (hay.includes(q)) return 40;
  const words = q.split(/\s+/);
  if (words.every((w) => hay.includes(w))) return 30;
  if (isSubsequence(q.replace(/\s+/g, ''), title)) return 10;
  return 0;
}

/**
 * Commands matching the text, best first; within equal scores the focused route's contextual
 * commands come first, then registry order.
 */
export function filterCommands<C extends Pick<Command, 'title' | 'keywords' | 'group' | 'id' | 'routes'>>(
  commands: readonly C[],
  query: string,
  route: string | null,
  minScore = 1,
): C[] {
  return commands
    .map((c, i) => ({ c, i, s: scoreCommand(c, query), ctx: route && c.routes?.includes(route as never) ? 1 : 0 }))
    .filter((x) => x.s >= minScore)
    .sort((a, b) => b.s - a.s || b.ctx - a.ctx || a.i - b.i)
    .map((x) => x.c);
}
