// A confirmation the player can feel or hear: a vibration where the phone has one (Android),
// otherwise a short quiet tone (iPhones have no vibration API). Browsers allow either only
// after the player has touched the page, so nothing happens before the first tap. The page
// always says the same in words too (play.js's notice).

const PATTERNS = { income: [80], build: [40, 60, 40], done: [30], refused: [120, 80, 120] };
// Hz: one note for income or a move done, two rising for a build, two falling for a refusal
const TONES = { income: [660], build: [523, 784], done: [587], refused: [392, 294] };

let audio = null;

function tone(frequencies) {
  audio ??= new AudioContext();
  if (audio.state === "suspended") audio.resume();
  let start = audio.currentTime;
  for (const frequency of frequencies) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.08, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.15);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.15);
    start += 0.12;
  }
}

export function confirmWith(kind) {
  if (!navigator.userActivation?.hasBeenActive) return;
  document.body.dataset.lastFeedback = kind; // what the page last confirmed (read by tests)
  try {
    if (navigator.vibrate && navigator.vibrate(PATTERNS[kind])) return;
    if (window.AudioContext) tone(TONES[kind]);
  } catch {
    // not allowed here: silence is fine
  }
}
