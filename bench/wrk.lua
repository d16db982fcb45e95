-- wrk script of the load benchmark (bench/run.py).
-- The request's method and JSON body come from the environment (BENCH_METHOD, BENCH_BODY).
-- Random-key rows: BENCH_PATHS_FILE names a file of request paths, one a line; each
-- request is one of them drawn at random (math.random seeded with BENCH_SEED and the
-- thread's number), the requests formatted once at init.
-- BENCH_ACCEPT_ENCODING: sent as the Accept-Encoding header (the compressed rows: gzip).
-- BENCH_COUNT_CACHE=1: response() counts the answers' X-Cache header (hit, miss, none).
-- done() prints one line, "BENCH_RESULT <json>", that bench/run.py parses.

wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

local accept_encoding = os.getenv("BENCH_ACCEPT_ENCODING")
if accept_encoding and accept_encoding ~= "" then
  wrk.headers["Accept-Encoding"] = accept_encoding
end

local paths_file = os.getenv("BENCH_PATHS_FILE") or ""
local seed = tonumber(os.getenv("BENCH_SEED") or "") or 1
local count_cache = os.getenv("BENCH_COUNT_CACHE") == "1"

-- The threads, kept by setup() so that done() can read their counters.
local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_number", thread_count)
  table.insert(threads, thread)
end

-- Globals of each thread's state, read by done() with thread:get().
hits, misses, uncounted, paths_loaded = 0, 0, 0, 0

function load_paths(name)
  local file = assert(io.open(name, "r"))
  local paths = {}
  for line in file:lines() do
    if line ~= "" then
      paths[#paths + 1] = line
    end
  end
  file:close()
  assert(#paths > 0, "no path in " .. name)
  return paths
end

if paths_file ~= "" then
  local requests = {}

  function init(args)
    math.randomseed(seed * 1000 + (thread_number or 0))
    for index, path in ipairs(load_paths(paths_file)) do
      requests[index] = wrk.format(nil, path)
    end
    paths_loaded = #requests
  end

  function request()
    return requests[math.random(#requests)]
  end
end

if count_cache then
  function response(status, headers, body)
    local answer = headers["X-Cache"] or headers["x-cache"]
    if answer == "hit" then
      hits = hits + 1
    elseif answer == "miss" then
      misses = misses + 1
    else
      uncounted = uncounted + 1
    end
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  local total = { hits = 0, misses = 0, uncounted = 0, paths = 0 }
  for _, thread in ipairs(threads) do
    total.hits = total.hits + (thread:get("hits") or 0)
    total.misses = total.misses + (thread:get("misses") or 0)
    total.uncounted = total.uncounted + (thread:get("uncounted") or 0)
    total.paths = math.max(total.paths, thread:get("paths_loaded") or 0)
  end
  io.write(string.format(
    'BENCH_RESULT {"requests": %d, "duration_us": %d, "bytes": %d, '
      .. '"connect_errors": %d, "read_errors": %d, "write_errors": %d, '
      .. '"status_errors": %d, "timeouts": %d, '
      .. '"p50_us": %.0f, "p90_us": %.0f, "p99_us": %.0f, "max_us": %.0f, "mean_us": %.1f, '
      .. '"cache_counted": %s, "cache_hits": %d, "cache_misses": %d, "cache_uncounted": %d, '
      .. '"paths": %d}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, latency.mean,
    tostring(count_cache), total.hits, total.misses, total.uncounted, total.paths
  ))
end
