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

/** Shows `message` in `element` (hidden when empty). */
export function show(element, message) {
  element.textContent = message ?? '';
  element.classList.toggle('hidden', !message);
}
