-- wrk script of bench/workers.ts: cycles through the request paths listed in $WRK_PATHS (one per
-- line) and prints a one-line JSON summary (requests, duration, errors, latency percentiles in µs).
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local i = 0

request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
