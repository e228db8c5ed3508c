/* global document, window */
// Runs before the first paint (a blocking classic script: the CSP forbids inline scripts) so the page never
// flashes the wrong theme. Keep the key and colours in step with src/features/theme/theme.ts; a unit test
// checks that they match.
(function () {
  var theme = null;
  try {
    var stored = localStorage.getItem('campus-talk.theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
  } catch {
    // Storage can be blocked (private modes, policies): fall back to the system preference.
  }
  if (!theme) {
    var prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    theme = prefersDark ? 'dark' : 'light';
  }
  document.documentElement.setAttribute('data-theme', theme);
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute('content', theme === 'dark' ? '#0f1115' : '#f6f7fb');
})();
