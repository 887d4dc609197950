import { atom } from 'jotai';

/** The `?` cheat sheet dialog. */
export const cheatSheetOpenAtom = atom(false);
