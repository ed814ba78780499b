/**
 * Clock faces, as every page shows them: `4:59`, and tenths under ten seconds (`0:09.4`). A face
 * is an element with `data-clock="red|blue"` (its text in a `.time` child when it has one); it
 * carries `data-ms` (the time left), the class `running` and `data-clock-running` while its side's
 * clock runs, `low` and `data-clock-low` under ten seconds, and `flagged` once it has run out.
 */

/** Under this, a clock shows tenths and is marked low. */
export const LOW_MS = 10000;

/** The tenths of a second a clock shows for `ms`: rounded up, so a clock reads 0:00.0 only once out. */
const tenths = (ms) => Math.ceil(Math.max(0, ms) / 100);

/**
 * Whether `ms` is low time: judged on the time as shown, so a face marked low always shows its
 * tenths (9,950 ms reads 0:10 and is not yet low).
 */
export const isLow = (ms) => tenths(ms) * 100 < LOW_MS;

/** A time on a clock: 4:59, and tenths under ten seconds (0:09.4). */
export function clockText(ms) {
  const seconds = tenths(ms) / 10;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  return isLow(ms) ? `0:0${rest.toFixed(1)}` : `${minutes}:${String(Math.floor(rest)).padStart(2, '0')}`;
}

/** Shows `ms` left on `face`, running or not, flagged or not. */
export function showClock(face, { ms, running = false, flagged = false }) {
  const left = Math.max(0, Math.round(ms));
  face.dataset.ms = String(left);
  const text = face.querySelector('.time') ?? face;
  text.textContent = clockText(left);
  face.classList.toggle('running', running);
  face.toggleAttribute('data-clock-running', running);
  const low = isLow(left) && !flagged;
  face.classList.toggle('low', low);
  face.toggleAttribute('data-clock-low', low);
  face.classList.toggle('flagged', flagged);
}
