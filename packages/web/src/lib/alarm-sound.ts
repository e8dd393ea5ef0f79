import { STORAGE_KEYS } from '@vitalwatch/shared';
import { z } from 'zod';

/**
 * One burst of IEC 60601-1-8's high-priority alarm signal, synthesised with Web Audio (no audio
 * file): ten pulses in the pattern 3 + 2, a pause, 3 + 2; each pulse 150 ms of a square wave
 * (its odd harmonics make it easy to locate), fundamental 660 Hz (the standard asks 150–1000 Hz).
 * Offsets in seconds from the start of the burst.
 */
const PULSE_OFFSETS_S = [0, 0.25, 0.5, 1.1, 1.35, 2.35, 2.6, 2.85, 3.45, 3.7];
const PULSE_S = 0.15;
const FREQUENCY_HZ = 660;
const VOLUME = 0.2;

let context: AudioContext | null = null;
const stateListeners = new Set<() => void>();
const notify = () => {
  for (const listener of stateListeners) listener();
};

function ensureContext(): AudioContext {
  if (!context) {
    context = new AudioContext();
    context.addEventListener('statechange', notify);
    notify();
  }
  return context;
}

/**
 * Allows sound on this page: browsers start an audio context only from a user's click (or once
 * the page has had one), so a click on the setting or on "Turn on sound" calls this.
 */
export function unlockAlarmSound(): void {
  const audio = ensureContext();
  if (audio.state === 'suspended') audio.resume().catch(() => undefined);
}

/** Whether the page may play sound now (an audio context exists and runs). */
export const alarmSoundAllowed = (): boolean => context?.state === 'running';

/** Listens for the audio context starting or being suspended; returns the unsubscribe. */
export function onAlarmSoundState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => {
    stateListeners.delete(listener);
  };
}

/** Plays one burst, if the page may play sound (after a click: see `unlockAlarmSound`). */
export function playAlarmBurst(): void {
  if (!context && navigator.userActivation?.hasBeenActive) ensureContext();
  if (!context) return;
  if (context.state === 'suspended') context.resume().catch(() => undefined);
  const start = context.currentTime + 0.05;
  for (const offset of PULSE_OFFSETS_S) {
    const at = start + offset;
    const oscillator = context.createOscillator();
    oscillator.type = 'square';
    oscillator.frequency.value = FREQUENCY_HZ;
    const gain = context.createGain();
    // Short ramps in and out: a pulse that starts or stops at full volume clicks.
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(VOLUME, at + 0.015);
    gain.gain.setValueAtTime(VOLUME, at + PULSE_S - 0.02);
    gain.gain.linearRampToValueAtTime(0, at + PULSE_S);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + PULSE_S);
  }
}

const storedChoice = z.enum(['on', 'off']);
const settingListeners = new Set<() => void>();
/** The choice made on a browser without storage (private mode): kept until the page is left. */
let unstored: boolean | null = null;

/** Profile → "Sound for urgent alerts": per browser, off unless this browser turned it on. */
export function readAlarmSoundSetting(): boolean {
  try {
    const parsed = storedChoice.safeParse(window.localStorage.getItem(STORAGE_KEYS.urgentAlertSound));
    return parsed.success && parsed.data === 'on';
  } catch {
    return unstored ?? false;
  }
}

export function storeAlarmSoundSetting(on: boolean): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.urgentAlertSound, on ? 'on' : 'off');
  } catch {
    unstored = on;
  }
  for (const listener of settingListeners) listener();
}

/** Listens for the setting changing here or in another tab; returns the unsubscribe. */
export function onAlarmSoundSetting(listener: () => void): () => void {
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.urgentAlertSound) listener();
  };
  settingListeners.add(listener);
  window.addEventListener('storage', fromOtherTab);
  return () => {
    settingListeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}
