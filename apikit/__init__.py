"""The HTTP toolkit: envelopes, errors, list queries, rendered answers, routing, guards."""
