-- wrk script for bench/web-load.sh: a fixed mix of valid API calls, engine searches, malformed
-- JSON, oversized bodies, unknown routes and path traversal attempts, sent round-robin; every
-- response's status is counted, and each thread stops after its share of TOTAL requests.

local total = tonumber(os.getenv("TOTAL") or "100000")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

-- Each entry: a name, the request, the status it must get, and another it may get instead (a
-- search is refused with a 429 when every core is searching and the engine's queue is full).
local function mix()
  local oversized = '{"text": "' .. string.rep("0 ", 600000) .. '"}'
  local duck_game = '{"commands": ["0 3 1 4", "9 4 8 4", "0 1 2 2", "9 1 7 2", "2 2 3 4"], "at": 3}'
  local arena_game = '{"input": "1\\n2 4 2 5\\n0 0 0 0\\n0 0 1 0\\n1 1 5 2 0 3 1 1 1 onepunch 3 2\\n2 4 4 1 1 2 2 1 1 rabiribi 2\\n"}'
  local trace = '{"input": "1\\n2 4 2 5\\n0 0 0 0\\n0 0 1 0\\n1 1 5 2 0 3 1 1 1 onepunch 3 2\\n2 4 4 1 1 2 2 1 1 rabiribi 2\\n", "game": 1}'
  local post = function(path, body)
    return wrk.format("POST", path, { ["Content-Type"] = "application/json" }, body)
  end
  local get = function(path)
    return wrk.format("GET", path)
  end
  return {
    { "index", get("/api/"), 200 },
    { "duck page", get("/duck"), 200 },
    { "duck move", post("/api/duck/move", '{"commands": ["0 3 1 4"], "command": "9 4 8 4"}'), 200 },
    { "duck game", post("/api/duck/game", duck_game), 200 },
    { "duck position", post("/api/duck/position", duck_game), 200 },
    { "chess record", post("/api/chess/check", '{"text": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0"}'), 200 },
    { "arena judge", post("/api/arena/judge", arena_game), 200 },
    { "arena trace", post("/api/arena/trace", trace), 200 },
    { "engine search", post("/api/duck/engine", '{"commands": ["0 3 1 4", "9 4 8 4"], "depth": 4}'), 200, 429 },
    { "engine stop", post("/api/duck/engine/stop", '{"id": "0123456789abcdef"}'), 200 },
    { "engine over the time cap", post("/api/duck/engine", '{"commands": [], "movetime": 60000}'), 400 },
    { "garbage JSON", post("/api/duck/game", '{"commands": [1, 2, {'), 400 },
    { "wrong fields", post("/api/chess/check", '{"txt": 5}'), 400 },
    { "bad command", post("/api/duck/move", '{"commands": [], "command": "a b c d"}'), 400 },
    { "bad arena input", post("/api/arena/judge", '{"input": "1\\n1 1 1 1\\n0\\n1 1 1 1 0 0 1 1 1 fly\\n"}'), 400 },
    { "unknown route", get("/nope"), 404 },
    { "unknown API", post("/api/nope", "{}"), 404 },
    { "traversal", get("/../../etc/passwd"), 404 },
    { "encoded traversal", get("/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd"), 404 },
    { "wrong method", get("/api/duck/move"), 405 },
    { "oversized body", post("/api/duck/import", oversized), 413 },
  }
end

local codes = { 200, 400, 404, 405, 413, 429 }

-- Nanoseconds since the epoch: wrk's clock is not available to scripts, and wrk runs for its
-- whole -d duration even after every thread has stopped, so the script times its own requests.
local function now()
  local clock = io.popen("date +%s%N")
  local ns = tonumber(clock:read("*l"))
  clock:close()
  return ns
end

function init(args)
  requests = mix()
  sent = 0
  received = 0
  started = 0
  finished = 0
  limit = math.ceil(total / tonumber(os.getenv("THREADS") or "1"))
  for _, code in ipairs(codes) do
    _G["s" .. code] = 0
  end
  s5xx, other = 0, 0
end

function request()
  if sent == 0 then
    started = now()
  end
  sent = sent + 1
  return requests[(sent - 1) % #requests + 1][2]
end

function response(status, headers, body)
  received = received + 1
  local key = "s" .. status
  if _G[key] ~= nil then
    _G[key] = _G[key] + 1
  elseif status >= 500 then
    s5xx = s5xx + 1
  else
    other = other + 1
  end
  if received == limit then
    finished = now()
    wrk.thread:stop()
  end
end

function done(summary, latency, reqs)
  local names = mix()
  -- Per status: the entries that must get it, and those that may get it instead of another.
  local expected, may = {}, {}
  for _, code in ipairs(codes) do
    expected[code], may[code] = 0, 0
  end
  for _, entry in ipairs(names) do
    expected[entry[3]] = expected[entry[3]] + 1
    if entry[4] then
      may[entry[4]] = may[entry[4]] + 1
    end
  end
  local sum = function(key)
    local n = 0
    for _, thread in ipairs(threads) do
      n = n + thread:get(key)
    end
    return n
  end
  io.write(string.format("%-8s %9s %9s\n", "status", "responses", "expected"))
  local share = function(n)
    return summary.requests * n / #names
  end
  for _, code in ipairs(codes) do
    local n = sum("s" .. code)
    local low, high = share(expected[code]), share(expected[code])
    -- A 429 takes the place of a 200.
    if code == 200 then
      low = low - share(may[429])
    end
    if may[code] > 0 then
      io.write(string.format("%-8d %9d %9s\n", code, n, string.format("0-%.0f", share(may[code]))))
    elseif low ~= high then
      io.write(string.format("%-8d %9d %9s\n", code, n, string.format("%.0f-%.0f", low, high)))
    else
      io.write(string.format("%-8d %9d %9.0f\n", code, n, high))
    end
  end
  io.write(string.format("%-8s %9d %9d\n", "5xx", sum("s5xx"), 0))
  io.write(string.format("%-8s %9d %9d\n", "other", sum("other"), 0))
  local first, last = math.huge, 0
  for _, thread in ipairs(threads) do
    first = math.min(first, thread:get("started"))
    last = math.max(last, thread:get("finished"))
  end
  local seconds = (last - first) / 1e9
  if last == 0 then
    seconds = summary.duration / 1e6
    io.write("(the run hit -d before TOTAL responses)\n")
  end
  io.write(string.format("responses: %d in %.1f s; socket errors: connect %d, read %d, write %d, timeout %d\n",
    summary.requests, seconds,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("requests/s: %.0f; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests / seconds, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
