import '@testing-library/jest-dom/vitest';

// `findBy…` and `waitFor` give up after 5 s instead of Testing Library's 1 s: `npm test` runs the
// unit tests beside the end-to-end browsers, niced, and a render that waits for a timer or a
// resolved promise may take longer than a second on a busy 2-core machine. A test that waits for
// something that never comes still fails. (Files in plain Node render nothing: no Testing Library.)
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5000 });
}
