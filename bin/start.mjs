// `npm start`: runs the compiled server (dist/server), the one runtime path of the product. When
// dist/server is missing or older than a source file of the server it is compiled first (the
// TypeScript 7 compiler takes a few seconds), so a fresh clone starts with `npm install && npm start`,
// an edited source is never shadowed by an older build, and what a developer runs is what an
// operator runs. Without the compiler (`npm ci --omit=dev`) it runs the existing build.
import { compiledMain, ensureServerBuilt } from './server-build.mjs';

ensureServerBuilt();
await import(compiledMain);
