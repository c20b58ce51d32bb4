import { ElementCache, ELEMENT_CACHE_SIZE, formatElementId } from './element-cache';

describe('WDA element ids and cache', () => {
  it('formats ids as WDA does: 8 bytes element id LE, 4 bytes pid LE, 4 zero bytes', () => {
    expect(formatElementId(10, 0x052a)).toBe('0A000000-0000-0000-2A05-000000000000');
    expect(formatElementId(0x0102030405, 0x01020304)).toBe('05040302-0100-0000-0403-020100000000');
  });

  it('gives the same element the same id and forgets the least recently used beyond 1024', () => {
    const cache = new ElementCache();
    const first = cache.store('a', 7);
    expect(cache.store('a', 7)).toBe(first);
    for (let i = 0; i < ELEMENT_CACHE_SIZE - 1; i++) cache.store(`e${i}`, 7);
    expect(cache.size).toBe(ELEMENT_CACHE_SIZE);
    expect(cache.get(first.toLowerCase())).toEqual({ uid: 'a', pid: 7 }); // touching keeps it
    const second = cache.store('e-new', 7);
    expect(cache.size).toBe(ELEMENT_CACHE_SIZE);
    expect(cache.get(first)).toBeDefined();
    expect(cache.get(formatElementId(2, 7))).toBeUndefined(); // e0, the oldest untouched entry, is gone
    expect(cache.get(second)).toEqual({ uid: 'e-new', pid: 7 });
  });
});
