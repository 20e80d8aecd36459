import { ApiKeyCache } from './api-key-cache';
import { cachedKey as key } from './cached-key.fixtures';

describe('ApiKeyCache', () => {
  it('answers until the TTL runs out', () => {
    const cache = new ApiKeyCache(1000);
    cache.set('h1', key('k1'), 0);
    expect(cache.get('h1', 999)?.keyId).toBe('k1');
    expect(cache.get('h1', 1000)).toBeUndefined();
  });

  it('remembers unknown hashes as null', () => {
    const cache = new ApiKeyCache(1000);
    cache.set('nope', null, 0);
    expect(cache.get('nope', 1)).toBeNull();
    expect(cache.get('other', 1)).toBeUndefined();
  });

  it('forgets a key by id at once', () => {
    const cache = new ApiKeyCache(1000);
    cache.set('h1', key('k1'), 0);
    cache.set('h2', key('k2'), 0);
    cache.invalidate('k1');
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.keyId).toBe('k2');
  });

  it('forgets everything at once', () => {
    const cache = new ApiKeyCache(1000);
    cache.set('h1', key('k1'), 0);
    cache.set('nope', null, 0);
    cache.clear();
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('nope', 1)).toBeUndefined();
  });

  it('does not keep a row read before an eviction', () => {
    const cache = new ApiKeyCache(1000);
    const readAt = cache.generation;
    cache.invalidate('k1');
    cache.set('h1', key('k1'), 0, readAt);
    expect(cache.get('h1', 1)).toBeUndefined();
    cache.set('h1', key('k1'), 0, cache.generation);
    expect(cache.get('h1', 1)?.keyId).toBe('k1');
  });

  it('stays bounded, dropping the oldest first', () => {
    const cache = new ApiKeyCache(1000, 2);
    cache.set('h1', key('k1'), 0);
    cache.set('h2', key('k2'), 0);
    cache.set('h3', key('k3'), 0);
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h3', 1)?.keyId).toBe('k3');
  });
});
