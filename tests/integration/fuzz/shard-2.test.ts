// Property tests over the route table, part 2 of 4 (tests/integration/fuzz/routes.ts).
import { fuzzShard } from './shard.js';

fuzzShard(1, 4);
await import('./routes.js');
