// First: with a stored session the workspace's chunk starts loading before the rest is evaluated.
import './early-start';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startLoading } from './app';

startLoading();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
