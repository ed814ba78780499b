// Applies the colour theme the reader chose (kept by the switch in common.js) before the page is
// drawn, so that a dark page does not flash light. Without a choice the system's is followed.
try {
  const theme = localStorage.getItem('arbiter.theme');
  if (theme === 'dark' || theme === 'light') document.documentElement.dataset.theme = theme;
} catch {
  // Storage refused: the system's theme.
}
