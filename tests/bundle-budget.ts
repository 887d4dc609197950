// The sign-in page's bundle budget, checked on the build (`npm test` runs it after `npm run build`;
// alone: `node --import tsx tests/bundle-budget.ts`): the JavaScript and CSS the sign-in page loads
// (index.html's scripts, preloads and stylesheets and the chunks they import statically), gzip,
// within SIGN_IN_BUDGET (tests/helpers/sign-in-bundle.ts), and every text asset with the brotli and
// gzip files beside it that the server sends. Prints each file and ends with "N passed, N failed".
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { budgetFailures, describeBundle, missingPrecompressed, signInBundle } from './helpers/sign-in-bundle.js';

const clientDir = resolve(process.argv[2] ?? 'dist/client');
if (!existsSync(resolve(clientDir, 'index.html'))) {
  console.error(`${clientDir}/index.html is missing: run \`npm run build\` first`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const bundle = signInBundle(clientDir);
console.log(`The sign-in page's bundle (${clientDir}):\n${describeBundle(bundle)}`);
const checks: [string, string[]][] = [
  ['sign-in bundle within budget', budgetFailures(bundle)],
  ['assets precompressed (br and gz)', missingPrecompressed(clientDir).map((f) => `missing ${f}`)],
];
let failed = 0;
for (const [name, problems] of checks) {
  console.log(`${problems.length ? 'FAIL' : 'ok  '} ${name}`);
  for (const p of problems) console.log(`       ${p}`);
  if (problems.length) failed++;
}
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
