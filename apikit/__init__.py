"""The HTTP toolkit: envelopes, errors and their handler, list-query decoding, rendered
answers (ETag, Cache-Control), JSON rendering, routing, schema helpers and request guards.
Knows no domain: apps plug their endpoints into it."""
