"""The caching layer's machinery, in one place (docs/caching.md is its map):

- `backend`: the cache backends settings.CACHES names (Redis behind a circuit breaker, the
  bounded local-memory cache) and whether the shared cache is local or reachable;
- `versions`: namespace versions (in Redis or in a memory-mapped file), their bumps, the
  per-request snapshot and `invalidate_on_change`;
- `tracking`: with Redis, the versions a process read, kept until Redis pushes their change;
- `records`: the versions of single records a rendering read (`depend_on`, `still_current`);
- `kept`: values kept under a namespace's version (`kept`, `kept_many` with `Warm`, `cached`);
- `admission`: the segmented LRU that keeps one-off keys from pushing out popular ones.

The HTTP side (rendered answers, `cached_answers`, `early_answers`) is `apikit.caching`.
"""
