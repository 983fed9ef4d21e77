-- wrk script for perf/load.sh TARGET=mixed: decisions, each followed by the impression
-- calls of its reply, as an app that shows what it was given.
--
--   wrk ... -s perf/mixed.lua URL -- BODIES_FILE VERSION ACCEPT_LANGUAGE MODE
--
-- MODE "mixed" queues the impression paths of every decision reply and sends them before
-- the next decision; MODE "decide" parses the replies the same way but sends decisions
-- only, so the two kinds of round cost wrk the same and the comparison is the server's.

local decisions = {}
local count = 0
local next_index = 0
local queue = {}
local mode = "mixed"

function init(args)
  local bodies_file, version, accept_language = args[1], args[2], args[3]
  mode = args[4] or "mixed"
  local headers = { ["Content-Type"] = "application/json" }
  if version ~= nil and version ~= "" then headers["X-Decision-Version"] = version end
  if accept_language ~= nil and accept_language ~= "" then headers["Accept-Language"] = accept_language end
  for body in io.lines(bodies_file) do
    if body ~= "" then
      count = count + 1
      decisions[count] = wrk.format("POST", wrk.path, headers, body)
    end
  end
  if count == 0 then error("mixed.lua: no request bodies in " .. bodies_file) end
end

function request()
  local queued = #queue
  if queued > 0 then
    local path = queue[queued]
    queue[queued] = nil
    return wrk.format("GET", path)
  end
  next_index = next_index + 1
  if next_index > count then next_index = 1 end
  return decisions[next_index]
end

-- The impression URLs of a reply: plain find() of the array's start, then of each path.
function response(status, headers, body)
  if body == nil then return end
  local at = 1
  while true do
    local s = body:find('"impressions":[{"key":"impression","value":"', at, true)
    if s == nil then return end
    local p = body:find("/v1/tracking?t=", s, true)
    if p == nil then return end
    local e = body:find('"', p, true)
    if mode == "mixed" then queue[#queue + 1] = body:sub(p, e - 1) end
    at = e
  end
end
