// Helpers shared by the pages: the API call, element builders, files. No game rule lives here or
// anywhere in the pages: they draw what the server says and send back what the player did.

/** An error answered by the API, with its HTTP status. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** GET `path`, or POST `body` as JSON when given; resolves to the JSON reply. */
export async function api(path, body) {
  const init = body === undefined
    ? {}
    : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(`cannot reach the server (${error.message}); is arbiter serve running?`, 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(data?.error ?? `the server answered ${response.status}`, response.status);
  }
  return data;
}

/**
 * POSTs `body` as JSON to `path` and yields each line of the reply, a JSON object, as it arrives
 * (a reply of JSON lines, `application/x-ndjson`); `signal` aborts the request.
 */
export async function* apiLines(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(`cannot reach the server (${error.message}); is arbiter serve running?`, 0);
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(data?.error ?? `the server answered ${response.status}`, response.status);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line.trim() !== '') yield JSON.parse(line);
      }
    }
  } finally {
    // A reader left early closes the request, which tells the server to stop.
    reader.cancel().catch(() => {});
  }
}

const SVG = 'http://www.w3.org/2000/svg';

function build(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: `h('button', {class: 'x', onclick}, 'text')`. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, like `h`. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

/** The element matching `selector`; throws when the page lacks it. */
export function $(selector, root = document) {
  const found = root.querySelector(selector);
  if (!found) throw new Error(`missing ${selector}`);
  return found;
}

/** Offers `text` as a download named `name`. */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The text of the file chosen in a file input. */
export function readFile(input) {
  const file = input.files?.[0];
  return file ? file.text() : Promise.resolve(null);
}

/** Whether a key event comes from a field where typing should not drive the page. */
export function typing(event) {
  const target = event.target;
  return target instanceof HTMLElement
    && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * Keeps `element` before `anchor` while the window is narrow (a phone: one column), so that it is
 * seen with the board, and where the page put it otherwise.
 */
export function nearOnNarrow(element, anchor) {
  const narrow = matchMedia('(max-width: 960px)');
  const home = { parent: element.parentElement, next: element.nextElementSibling };
  const place = () => {
    if (narrow.matches) anchor.parentElement.insertBefore(element, anchor);
    else home.parent.insertBefore(element, home.next);
  };
  narrow.addEventListener('change', place);
  place();
}

/**
 * The keys that step through a game on a board page, outside the fields: ← → Home End call
 * `step` with `prev`, `next`, `first` or `last`, f flips the board, Escape drops the selection.
 */
export function stepKeys({ step, flip, escape }) {
  const keys = {
    ArrowLeft: () => step('prev'),
    ArrowRight: () => step('next'),
    Home: () => step('first'),
    End: () => step('last'),
    f: flip,
    F: flip,
    Escape: escape,
  };
  document.addEventListener('keydown', (event) => {
    if (typing(event) || event.altKey || event.ctrlKey || event.metaKey) return;
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  });
}

/** `text` with its first letter in capitals. */
export function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Shows `message` in `element` (hidden when empty). */
export function show(element, message) {
  element.textContent = message ?? '';
  element.classList.toggle('hidden', !message);
}

// ---------------------------------------------------------------------------------------------
// The colour theme: the system's (prefers-color-scheme) unless the reader chose one with the
// switch in the header, kept in localStorage. theme.js applies the choice before the first paint.

const THEME_KEY = 'arbiter.theme';

/** The theme shown: `dark` or `light`. */
function themeShown() {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'dark' || chosen === 'light') return chosen;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function themeSwitch() {
  const header = document.querySelector('header.top');
  if (!header) return;
  const button = h('button', { type: 'button', class: 'theme-switch', 'data-theme-switch': true });
  const label = () => {
    const dark = themeShown() === 'dark';
    button.textContent = dark ? '☀ Light' : '☾ Dark';
    button.title = dark ? 'Light colours' : 'Dark colours';
    button.setAttribute('aria-pressed', String(dark));
  };
  button.addEventListener('click', () => {
    const next = themeShown() === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // Private windows may refuse storage: the choice then lasts for the page.
    }
    label();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', label);
  label();
  header.append(button);
}
themeSwitch();

// ---------------------------------------------------------------------------------------------
// Move sounds: off by default; a switch turns them on, kept in localStorage. The sound is made
// by the Web Audio API, so that no sound file is needed.

const SOUND_KEY = 'arbiter.sound';
let audio = null;

const soundOn = () => localStorage.getItem(SOUND_KEY) === 'on';

/** A short wooden click, when sounds are on. */
export function moveSound() {
  if (!soundOn()) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'triangle';
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.exponentialRampToValueAtTime(220, now + 0.08);
    gain.gain.setValueAtTime(0.25, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.13);
  } catch {
    // A browser without Web Audio plays no sound.
  }
}

/** Makes `button` the switch of the move sounds. */
export function soundSwitch(button) {
  const label = () => {
    button.setAttribute('aria-pressed', String(soundOn()));
    button.textContent = soundOn() ? 'Sound: on' : 'Sound: off';
  };
  button.addEventListener('click', () => {
    try {
      localStorage.setItem(SOUND_KEY, soundOn() ? 'off' : 'on');
    } catch {
      // Without storage the switch cannot be kept.
    }
    label();
    moveSound();
  });
  label();
}

/**
 * Makes `button` ask before it acts, as a resignation should: a first click turns it into
 * `question` (with `data-confirm` set), a second one within four seconds calls `act`; otherwise
 * it turns back.
 */
export function confirming(button, question, act) {
  const label = button.textContent;
  let timer = null;
  const back = () => {
    clearTimeout(timer);
    timer = null;
    button.textContent = label;
    button.removeAttribute('data-confirm');
  };
  button.addEventListener('click', () => {
    if (button.hasAttribute('data-confirm')) {
      back();
      act();
      return;
    }
    button.textContent = question;
    button.setAttribute('data-confirm', '');
    timer = setTimeout(back, 4000);
  });
  return back;
}
