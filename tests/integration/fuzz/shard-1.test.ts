// Property tests over the route table, part 1 of 4 (tests/integration/fuzz/routes.ts).
import { fuzzShard } from './shard.js';

fuzzShard(0, 4);
await import('./routes.js');
