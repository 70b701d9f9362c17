import { Counter } from 'prom-client';

// The page cache is one per process, and its code should not need the app to count: these counters live at module
// level and every app's registry exposes them (in production there is one app per process).
export const pageCacheHits = new Counter({
  name: 'signpost_page_cache_hits_total',
  help: 'Public pages answered from the page cache',
  registers: [],
});
export const pageCacheMisses = new Counter({
  name: 'signpost_page_cache_misses_total',
  help: 'Public pages rendered because the page cache had no fresh copy',
  registers: [],
});

export function pageCacheHit(): void {
  pageCacheHits.inc();
}

export function pageCacheMiss(): void {
  pageCacheMisses.inc();
}
