// Property tests over the route table, part 3 of 4 (tests/integration/fuzz/routes.ts).
import { fuzzShard } from './shard.js';

fuzzShard(2, 4);
await import('./routes.js');
