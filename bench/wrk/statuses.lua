-- wrk script of the benchmark (bench/lib/load.mjs): counts responses per status in every
-- thread and prints, when the run is done, one JSON line the benchmark reads:
-- statuses, requests, duration and latency percentiles (microseconds, over every response).
-- Headers come from the command line (-H).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      counts[status] = (counts[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(counts) do
    table.insert(parts, string.format('"%d":%d', status, n))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"statuses":{%s},"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"errors":%d}\n',
    table.concat(parts, ","), summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout))
end
