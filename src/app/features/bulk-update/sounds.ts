// Short, distinct outcome sounds (Web Audio, no files): added = one high blip, already added =
// two mid blips, not found = one low longer tone. Switchable off (bulkSoundsAtom).
export type ScanSound = 'added' | 'already' | 'not-found';

let ctx: AudioContext | null = null;

function tone(ac: AudioContext, freq: number, start: number, ms: number) {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = 'square';
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.06, ac.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + start + ms / 1000);
  osc.connect(gain).connect(ac.destination);
  osc.start(ac.currentTime + start);
  osc.stop(ac.currentTime + start + ms / 1000);
}

/**
 * Creates the audio context ahead of the first scan, when the browser is idle: creating it takes
 * long enough (tens of ms, more on a busy machine) to hold up the first rows of a scanner burst.
 */
export function prepareScanSounds() {
  try {
    const AC = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (AC) ctx ??= new AC();
  } catch {
    // sound is a nicety
  }
}

/** Plays the outcome sound; never throws (no audio device, autoplay policy). */
export function playScanSound(kind: ScanSound) {
  try {
    const AC = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!AC) return;
    ctx ??= new AC();
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    if (kind === 'added') tone(ctx, 1320, 0, 60);
    else if (kind === 'already') {
      tone(ctx, 660, 0, 50);
      tone(ctx, 660, 0.09, 50);
    } else tone(ctx, 220, 0, 220);
  } catch {
    // sound is a nicety
  }
}
