-- A wrk/wrk2 script (-s scripts/pssrbench.lua): when the run ends, print its numbers as one JSON line, so that
-- PssrBench reads them as data rather than from the prose summary. Latencies are in microseconds; "status" counts
-- responses that were not 2xx or 3xx.
done = function(summary, latency, requests)
  local e = summary.errors
  local p = function(q) return latency:percentile(q) end
  io.write(string.format(
    'pssrbench-json {"duration_us":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"max":%d,"mean":%.3f,"stdev":%.3f,' ..
    '"50.000":%d,"75.000":%d,"90.000":%d,"99.000":%d,"99.900":%d,"99.990":%d}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.max, latency.mean, latency.stdev,
    p(50), p(75), p(90), p(99), p(99.9), p(99.99)))
end
