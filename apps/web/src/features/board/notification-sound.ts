const STORAGE_KEY = 'board_sound_enabled';

export function readSoundEnabled() {
  return localStorage.getItem(STORAGE_KEY) !== 'false';
}

export function storeSoundEnabled(enabled: boolean) {
  localStorage.setItem(STORAGE_KEY, String(enabled));
}

let context: AudioContext | null = null;

/** A short two-tone beep from WebAudio, so no sound file has to ship. */
export function playNotificationBeep() {
  const AudioContextClass = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!AudioContextClass) return;
  try {
    context ??= new AudioContextClass();
    const start = context.currentTime;
    const gain = context.createGain();
    gain.connect(context.destination);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    [880, 1320].forEach((frequency, index) => {
      const oscillator = context!.createOscillator();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      oscillator.connect(gain);
      oscillator.start(start + index * 0.12);
      oscillator.stop(start + 0.12 + index * 0.12);
    });
  } catch {
    // Browsers may refuse audio before a user gesture; a missed beep is harmless.
  }
}
