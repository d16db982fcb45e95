"""The load benchmark's data set: the demo store grown to a real store's size.

    .venv/bin/python -m bench.dataset [--check] [--seed N]   (from the project root)

`seed_demo` first (payment options, card flags, banners, shipping tables, pickups, postal
codes, the cart upsell offer, the demo catalog), then bulk inserts up to the totals of
`build.Size` (demo rows count towards them), every random choice drawn from
`random.Random` seeded with the data set's seed:

- categories (`catalog.py`): new top-level branches several levels deep, some inactive;
- main products (20,000 in all) named from a store's vocabulary ("<noun> <adjective>
  <colour>", Portuguese), of 48 brands, in a visible leaf, its parent and up to two other
  leaves, with filterable attribute values (material, voltage, warranty, origin), some
  with colour/size variations, each with a price in the default trade policy, stock in
  the demo storages, medias (shared placeholder images) and a description (its search
  description adds the material); the first one is the "top" product. Large tables go in
  by plain multi-row INSERTs (`rows.py`), not `bulk_create`: the build stays within a
  minute or two on SQLite and PostgreSQL;
- (`feedback.py`) approved product reviews, exactly `top_reviews` on the top product;
  approved store reviews on the channel serving 127.0.0.1; comments (questions and
  replies, some pending), `top_comments` of them on the top product. Reviews and comments
  fall on the first `regular_products` (1,000) main products only, as before the store
  grew to 20,000, so the review and comment rows keep their meaning.

A marker table (`bench_dataset`) keeps the fingerprint of the data set (seed, sizes, the
generator's and the demo seeds' sources, the migrations), so `bench/run.py` reuses a
database that matches and rebuilds one that does not.

Only `build.py`, `catalog.py`, `feedback.py` and `rows.py` import Django models: import them after
`django.setup()`.
"""
