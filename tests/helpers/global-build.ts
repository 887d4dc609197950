// The integration project's global set-up: the compiled server (dist/server) made current once,
// before any test starts it as `npm start` does (tests/integration/compiled-server.test.ts, the
// build-start and several-node tests). Tests never compile it themselves: two compilers writing
// one folder while a server runs from it would break both.
import { ensureServerBuilt } from '../../bin/server-build.mjs';

export default function setup() {
  ensureServerBuilt((line) => console.log(`[global set-up] ${line}`));
}
