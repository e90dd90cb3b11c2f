import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import '@lousho/demo-agent/styles.css';
import '@lousho/demo-agent/sessions-panel.css';
import '@lousho/demo-agent/thread-sidebar.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
