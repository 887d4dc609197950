import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startLoading } from './app';

startLoading();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
