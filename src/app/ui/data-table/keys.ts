// "Is the user typing?" lives once, in src/app/keyboard/keys.ts (isTypingTarget), for the whole app.

/** True when a key is a bare single key (no Ctrl, ⌘ or Alt; Shift is allowed for symbols). */
export const isBareKey = (e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean }) => !e.ctrlKey && !e.metaKey && !e.altKey;
