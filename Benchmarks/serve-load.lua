-- wrk script for Benchmarks/serve-load.sh: POSTs SSOKIT_BENCH_BODY to the URL, and counts as errors every answer
-- that is not a 2xx or whose body lacks SSOKIT_BENCH_EXPECT (the app API answers a refused authorization with a
-- 200 too). Prints one line `RESULT key=value ...` that the script parses.
local body = os.getenv("SSOKIT_BENCH_BODY")
local expect = os.getenv("SSOKIT_BENCH_EXPECT")
local threads = {}

wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  non2xx = 0
  unexpected = 0
end

function response(status, headers, answer)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  elseif not string.find(answer, expect, 1, true) then
    unexpected = unexpected + 1
  end
end

function done(summary, latency, requests)
  local non2xx_total, unexpected_total = 0, 0
  for _, thread in ipairs(threads) do
    non2xx_total = non2xx_total + thread:get("non2xx")
    unexpected_total = unexpected_total + thread:get("unexpected")
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d socket_errors=%d non2xx=%d unexpected=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout, non2xx_total, unexpected_total))
end
