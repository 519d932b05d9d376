/**
 * The scan confirmations as short beeps made with WebAudio (an OscillatorNode through a gain):
 * no audio files to ship or load. A high short tone for a counted scan, a lower one for an undo, a
 * low buzz for a code that matched nothing, a long middle triangle for another store's product
 * (each outcome its own sound: the scan station is used without looking). Silent where there is
 * no AudioContext (tests in jsdom).
 */
export type Beep = 'ok' | 'undo' | 'error' | 'other';

const TONES: Record<Beep, { type: OscillatorType; hz: number; seconds: number }> = {
  ok: { type: 'sine', hz: 1320, seconds: 0.08 },
  undo: { type: 'sine', hz: 660, seconds: 0.12 },
  error: { type: 'square', hz: 196, seconds: 0.3 },
  other: { type: 'triangle', hz: 440, seconds: 0.45 },
};

let context: AudioContext | null = null;

export function beep(kind: Beep): void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return;
  try {
    context ??= new Ctx();
    // A context created before any gesture starts suspended; the scan's key press counts as one.
    if (context.state === 'suspended') void context.resume();
    const tone = TONES[kind];
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = tone.type;
    osc.frequency.value = tone.hz;
    const t = context.currentTime;
    gain.gain.setValueAtTime(0.08, t);
    // A quick fade-out: no click at the end.
    gain.gain.exponentialRampToValueAtTime(0.0001, t + tone.seconds);
    osc.connect(gain).connect(context.destination);
    osc.start(t);
    osc.stop(t + tone.seconds);
  } catch {
    // Sound is a courtesy: the visible line and the live region say the same.
  }
}
