// Property tests over the route table, part 3 of 4 (tests/integration/fuzz/routes.ts).
import { fuzzRoutes } from './routes.js';

await fuzzRoutes(2, 4);
