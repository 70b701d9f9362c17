import { Counter } from 'prom-client';

// The page cache is one per process, and its code should not need the app to count: these counters live at module
// level and every app's registry exposes them (in production there is one app per process). A hit is a plain
// addition, read into the counter at scrape time: it happens on every answer from memory.
let hits = 0;
let misses = 0;

export const pageCacheHits = new Counter({
  name: 'signpost_page_cache_hits_total',
  help: 'Public pages answered from the page cache',
  registers: [],
  collect() {
    this.reset();
    this.inc(hits);
  },
});
export const pageCacheMisses = new Counter({
  name: 'signpost_page_cache_misses_total',
  help: 'Public pages rendered because the page cache had no fresh copy',
  registers: [],
  collect() {
    this.reset();
    this.inc(misses);
  },
});

export function pageCacheHit(): void {
  hits++;
}

export function pageCacheMiss(): void {
  misses++;
}
