"""Infrastructure shared by every app and the HTTP toolkit: the namespaced shared cache,
the cache backend with its circuit breaker, client addresses, error codes and domain
errors, log handlers. Knows no domain and no HTTP framework."""
