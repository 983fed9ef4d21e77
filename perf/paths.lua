-- wrk script for perf/load.sh TARGET=tracking: GET each path of a file once, in turn.
--
--   wrk ... -s perf/paths.lua URL -- PATHS_FILE VERSION
--
-- PATHS_FILE holds one request path per line (fresh impression tokens, minted by
-- decisiond_perf_fixtures for this run); VERSION is X-Tracking-Version, empty for none.
-- Requests are built in init(), so request() hands back a prebuilt string. Past the end of
-- the file the paths come round again: those calls are repeats (answered 204, counted as
-- duplicates), and load.sh reports how many there were.

local requests = {}
local count = 0
local next_index = 0

function init(args)
  local paths_file, version = args[1], args[2]
  if paths_file == nil or paths_file == "" then error("paths.lua: usage: -- PATHS_FILE VERSION") end
  local headers = {}
  if version ~= nil and version ~= "" then headers["X-Tracking-Version"] = version end
  for path in io.lines(paths_file) do
    if path ~= "" then
      count = count + 1
      requests[count] = wrk.format("GET", path, headers)
    end
  end
  if count == 0 then error("paths.lua: no paths in " .. paths_file) end
end

function request()
  next_index = next_index + 1
  if next_index > count then next_index = 1 end
  return requests[next_index]
end
