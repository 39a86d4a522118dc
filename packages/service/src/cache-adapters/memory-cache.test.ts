import { expect, it } from 'vitest';
import { cacheContract } from './cache-contract.js';
import { MemoryCache } from './memory-cache.js';

cacheContract('MemoryCache', async () => new MemoryCache());

it('evicts the least recently used value beyond its bound', async () => {
  const cache = new MemoryCache(2);
  await cache.set('a', 1, 60);
  await cache.set('b', 2, 60);
  await cache.get('a');
  await cache.set('c', 3, 60);
  expect([await cache.get('a'), await cache.get('b'), await cache.get('c')]).toEqual([1, undefined, 3]);
});
