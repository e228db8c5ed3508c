// Global styles first: feature stylesheets imported by the components below must come later in the cascade.
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/forms.css';
import './styles/components.css';
import './styles/page.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyStartupQuery } from './app/startup';
import { registerServiceWorker } from './features/offline/service-worker';
import { detectPlatform } from './platform';

applyStartupQuery();
const platform = detectPlatform();

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain #root.');
createRoot(root).render(
  <StrictMode>
    <App platform={platform} />
  </StrictMode>,
);

// After the page has loaded, so the worker's first downloads never compete with the app's own.
window.addEventListener('load', registerServiceWorker, { once: true });
