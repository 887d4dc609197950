// Which part of the route table a fuzz file covers: shard-N.test.ts calls fuzzShard(N, of) and then
// loads routes.ts, which takes every route whose index modulo `of` is N.
let shard: { index: number; of: number } | undefined;

export function fuzzShard(index: number, of: number) {
  shard = { index, of };
}

export function currentShard() {
  if (!shard) throw new Error('a fuzz shard file calls fuzzShard(index, of) before it loads routes.ts');
  return shard;
}
