// Audio of the alarm reports: the demo ships a few short, real WAV clips (8 kHz, 16-bit mono PCM,
// 2–5 s each, about 0.5 MB in all) generated deterministically at seed time into the
// alarmAudioClips table. Every available call record and every voice memo is served one of them,
// chosen by a hash of its id, so any number of alarm reports share a handful of clips. Records
// marked Unavailable (with their Reason) are never served.
import type { DB } from '../../db/index.js';
import { Rng } from '../../seed/rng.js';
import { AUDIO_TYPE } from '../../../shared/schemas/alarm-reports.js';

const RATE = 8000;
export const CALL_CLIPS = 6;
export const MEMO_CLIPS = 4;

/** A WAV file (RIFF, PCM 16-bit mono) of the samples in [-1, 1]. */
export function wav(samples: Float32Array, rate = RATE): Uint8Array {
  const data = samples.length * 2;
  const buf = new ArrayBuffer(44 + data);
  const dv = new DataView(buf);
  const ascii = (at: number, s: string) => [...s].forEach((ch, i) => dv.setUint8(at + i, ch.charCodeAt(0)));
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + data, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true); // PCM
  dv.setUint16(22, 1, true); // mono
  dv.setUint32(24, rate, true);
  dv.setUint32(28, rate * 2, true);
  dv.setUint16(32, 2, true);
  dv.setUint16(34, 16, true);
  ascii(36, 'data');
  dv.setUint32(40, data, true);
  for (let i = 0; i < samples.length; i++) dv.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, samples[i] ?? 0)) * 32767), true);
  return new Uint8Array(buf);
}

/**
 * A clip: for calls a UK ring tone (400 + 450 Hz, 0.4 s on, 0.2 s off, twice) then a voice-like
 * signal (a few harmonics of a wandering pitch, shaped into syllables with pauses); memos are the
 * voice part only.
 */
export function synthClip(seed: number, kind: 'call' | 'memo', k: number): Float32Array {
  const r = new Rng(seed, 'alarm-audio', kind, k);
  const seconds = kind === 'call' ? r.float(3.5, 5) : r.float(2, 4);
  const n = Math.round(seconds * RATE);
  const out = new Float32Array(n);
  let t0 = 0;
  if (kind === 'call') {
    const ring = Math.round(1.2 * RATE);
    for (let i = 0; i < ring && i < n; i++) {
      const t = i / RATE;
      const on = t % 0.6 < 0.4;
      out[i] = on ? 0.25 * (Math.sin(2 * Math.PI * 400 * t) + Math.sin(2 * Math.PI * 450 * t)) : 0;
    }
    t0 = ring + Math.round(0.3 * RATE);
  }
  const base = r.float(100, 210);
  let phase = 0;
  let i = t0;
  while (i < n) {
    const syll = Math.round(r.float(0.12, 0.3) * RATE);
    const pitch = base * r.float(0.85, 1.2);
    for (let j = 0; j < syll && i < n; j++, i++) {
      const env = Math.sin((Math.PI * j) / syll);
      phase += (2 * Math.PI * pitch * (1 + 0.05 * Math.sin((2 * Math.PI * j) / syll))) / RATE;
      out[i] = 0.35 * env * (Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.25 * Math.sin(3 * phase) + 0.12 * Math.sin(5 * phase));
    }
    i += Math.round((r.chance(0.25) ? r.float(0.25, 0.5) : r.float(0.03, 0.08)) * RATE);
  }
  return out;
}

/** Replaces the demo clips (idempotent; the same seed gives the same bytes). */
export async function seedAudioClips(db: DB, seed: number) {
  await db.deleteFrom('alarmAudioClips').execute();
  const rows = [
    ...Array.from({ length: CALL_CLIPS }, (_, k) => ({ id: `call-${k}`, kind: 'call', mime: AUDIO_TYPE, bytes: wav(synthClip(seed, 'call', k)) })),
    ...Array.from({ length: MEMO_CLIPS }, (_, k) => ({ id: `memo-${k}`, kind: 'memo', mime: AUDIO_TYPE, bytes: wav(synthClip(seed, 'memo', k)) })),
  ];
  for (const row of rows) await db.insertInto('alarmAudioClips').values(row).execute();
  return rows.length;
}

/** A stable clip index for an id (FNV-1a). */
export function clipIndex(id: string, count: number) {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % count;
}

/** The clip served for a call record SId or a voice memo id, or undefined when the demo has none. */
export async function readClip(db: DB, kind: 'call' | 'memo', id: string): Promise<{ mime: string; bytes: Uint8Array } | undefined> {
  const row = await db
    .selectFrom('alarmAudioClips')
    .select(['mime', 'bytes'])
    .where('id', '=', `${kind}-${clipIndex(id, kind === 'call' ? CALL_CLIPS : MEMO_CLIPS)}`)
    .executeTakeFirst();
  return row ? { mime: row.mime, bytes: new Uint8Array(row.bytes) } : undefined;
}

/**
 * The answer for a clip, honouring a single `Range: bytes=a-b` (206 with Content-Range; 416 when
 * it cannot be satisfied). Any other Range form is ignored (200 with the whole file).
 */
export function audioResponse(clip: { mime: string; bytes: Uint8Array }, range: string | undefined, fileName: string): Response {
  const size = clip.bytes.length;
  const headers: Record<string, string> = {
    'Content-Type': clip.mime,
    'Accept-Ranges': 'bytes',
    'Content-Disposition': `inline; filename="${fileName}"`,
    'Cache-Control': 'no-store', // recordings are personal data; the client keeps the blob in its query cache
  };
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (m && (m[1] || m[2])) {
    let start: number;
    let end: number;
    if (!m[1]) {
      const suffix = Number(m[2]);
      start = Math.max(0, size - suffix);
      end = size - 1;
    } else {
      start = Number(m[1]);
      end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    }
    if (start >= size || end < start || (!m[1] && Number(m[2]) === 0))
      return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
    const part = clip.bytes.slice(start, end + 1);
    return new Response(new Uint8Array(part), {
      status: 206,
      headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(part.length) },
    });
  }
  return new Response(new Uint8Array(clip.bytes), { status: 200, headers: { ...headers, 'Content-Length': String(size) } });
}
