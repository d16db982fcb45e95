-- wrk script of the load benchmark (bench/run.py).
-- The request's method and JSON body come from the environment (BENCH_METHOD, BENCH_BODY);
-- done() prints one line, "BENCH_RESULT <json>", that bench/run.py parses.

wrk.method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
if body and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests": %d, "duration_us": %d, "bytes": %d, '
      .. '"connect_errors": %d, "read_errors": %d, "write_errors": %d, '
      .. '"status_errors": %d, "timeouts": %d, '
      .. '"p50_us": %.0f, "p90_us": %.0f, "p99_us": %.0f, "max_us": %.0f, "mean_us": %.1f}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, latency.mean
  ))
end
