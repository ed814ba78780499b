// The sign-up and sign-in pages: one form each (`form[data-signup]`, `form[data-signin]`) sends
// the user name and password, and the page then shows the player signed in (`[data-user]`).

import { $ } from './common.js';
import { credentialsForm, refresh } from './account.js';

const form = $('form[data-credentials]');
credentialsForm(form, form.dataset.credentials, {
  error: $('[data-credentials-error]'),
  done: () => $('[data-credentials-done]').classList.remove('hidden'),
});
refresh().finally(() => { document.body.dataset.ready = 'true'; });
