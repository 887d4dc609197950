// Property tests over the route table, part 4 of 4 (tests/integration/fuzz/routes.ts).
import { fuzzShard } from './shard.js';

fuzzShard(3, 4);
await import('./routes.js');
