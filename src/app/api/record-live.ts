// A record open in a tab (alarm report, customer, person, device) stays live while the tab shows
// it: the tab's hub connection opens interest in the record (liveHub.watchRecord), so within moments
// of someone else's note or change the tab knows, and it learns who else has the record open.
// What the tab does with it is the page's: a note goes into the notes at once (onNote); a change
// only raises the quiet "Changed by NAME — reload" bar, never touching what the user is typing.
// The signed-in user's own changes (any of their tabs) raise no bar; their own notes still go to
// onNote (a note written in another of their tabs appears here too; the page adds a note once).
import { useEffect, useRef, useState } from 'react';
import { liveHub } from './live';
import { appStore } from '../state/store';
import { userIdAtom } from '../state/session';
import type { RecordChangedEvent, RecordKind } from '../../shared/schemas/record-live';

export type RecordLive = {
  /** the display name of who changed the record last since it was loaded (or reloaded), else null */
  changedBy: string | null;
  /** the others who have the record open */
  present: string[];
  /** forget the change (after a reload) */
  clear: () => void;
};

const sameId = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

/**
 * Follows the record while the component is mounted (no id: nothing). `onNote` receives every note
 * added (What 'note', the user's own included); without it another user's note counts as a change.
 */
export function useRecordLive(kind: RecordKind, id: string | null | undefined, opts: { onNote?: (e: RecordChangedEvent) => void } = {}): RecordLive {
  const [changedBy, setChangedBy] = useState<string | null>(null);
  const [present, setPresent] = useState<string[]>([]);
  const ref = useRef(opts);
  useEffect(() => {
    ref.current = opts;
  });
  useEffect(() => {
    if (!id) return;
    setChangedBy(null);
    setPresent([]);
    return liveHub.watchRecord(kind, id, {
      onChanged: (e) => {
        const onNote = ref.current.onNote;
        if (e.What === 'note' && onNote) onNote(e);
        else if (!sameId(appStore.get(userIdAtom), e.ByUserId)) setChangedBy(e.By);
      },
      onPresence: setPresent,
    });
  }, [kind, id]);
  return { changedBy, present, clear: () => setChangedBy(null) };
}
