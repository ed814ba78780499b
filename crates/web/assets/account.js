// Who is signed in, for every page that shows it: the header's name (`data-user`) and its
// sign-out button (`data-signout`), or the links to sign in and up; and the API calls of a
// session, which carry its CSRF token. The session itself is an HttpOnly cookie the page never
// sees.

import { ApiError, api, h } from './common.js';

/** The session as the server says: `{user: {name} | null, csrf?}`. */
let session = { user: null };

/** The signed-in player's name, or null. */
export const signedIn = () => session.user?.name ?? null;

/** Asks the server who is signed in, and redraws the header. */
export async function refresh() {
  try {
    session = await api('/api/account');
  } catch {
    session = { user: null };
  }
  drawHeader();
  return session;
}

/** Takes the session a sign-in (or sign-up, or password change) answered with. */
export function adopt(reply) {
  session = { user: reply.user, csrf: reply.csrf };
  drawHeader();
}

/** POSTs `body` as JSON to `path` with the session's CSRF token; resolves to the JSON reply. */
export async function act(path, body = {}) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf ?? '' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(`cannot reach the server (${error.message})`, 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(data?.error ?? `the server answered ${response.status}`, response.status);
  }
  return data;
}

/** Signs out, and redraws the header. */
export async function signOut() {
  await act('/api/account/signout');
  session = { user: null };
  drawHeader();
  document.dispatchEvent(new CustomEvent('account', { detail: session }));
}

/** The header's account corner. */
function drawHeader() {
  const header = document.querySelector('header.top');
  if (!header) return;
  let corner = header.querySelector('.account');
  if (!corner) {
    corner = h('span', { class: 'account' });
    header.append(corner);
  }
  const name = signedIn();
  corner.replaceChildren(...(name
    ? [
      h('a', { href: `/@/${encodeURIComponent(name)}`, 'data-user': name }, name),
      h('button', { type: 'button', 'data-signout': true, onclick: () => signOut().catch(() => {}) }, 'Sign out'),
    ]
    : [
      h('a', { href: '/signin', 'data-signin-link': true }, 'Sign in'),
      h('a', { href: '/signup', 'data-signup-link': true }, 'Sign up'),
    ]));
}

/**
 * Sends the form's `username` and `password` to `path` (sign-up or sign-in) and takes the
 * session it answers with; errors go to `error`.
 */
export function credentialsForm(form, path, { error, done }) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    error.textContent = '';
    error.classList.add('hidden');
    try {
      const reply = await api(path, { username: data.get('username'), password: data.get('password') });
      adopt(reply);
      form.reset();
      done(reply);
    } catch (failure) {
      error.textContent = failure.message;
      error.classList.remove('hidden');
    } finally {
      button.disabled = false;
    }
  });
}
