// Sets the colour theme before the page is drawn, so that a dark page does not flash light: the
// reader's choice (kept by the switch in common.js), else the system's, followed as it changes.
// style.css has one set of dark colours, for `data-theme="dark"`.
const systemDark = matchMedia('(prefers-color-scheme: dark)');
function applyTheme() {
  let chosen = null;
  try {
    chosen = localStorage.getItem('arbiter.theme');
  } catch {
    // Storage refused: the system's theme.
  }
  const follows = chosen !== 'dark' && chosen !== 'light';
  document.documentElement.dataset.theme = follows ? (systemDark.matches ? 'dark' : 'light') : chosen;
}
applyTheme();
systemDark.addEventListener('change', applyTheme);
