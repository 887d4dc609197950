import '@testing-library/jest-dom/vitest';

// `findBy…` and `waitFor` give up after 5 s instead of Testing Library's 1 s: `npm test` runs the
// unit tests beside the end-to-end browsers, niced, and a render that waits for a timer or a
// resolved promise may take longer than a second on a busy 2-core machine. A test that waits for
// something that never comes still fails. (Files in plain Node render nothing: no Testing Library.)
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5000 });
}

// The DOM files run in a VM context of their own each (vmThreads: jsdom and the libraries are loaded
// once per worker, the app's modules once per file). jsdom's `crypto` has no `subtle`: Node's Web
// Crypto is what a browser gives the captcha and the PKCE code.
if (typeof document !== 'undefined' && globalThis.crypto?.subtle === undefined) {
  const { webcrypto } = await import('node:crypto');
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}
