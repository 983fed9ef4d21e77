-- wrk script for perf/load.sh: POST /v1/decision with a rotating set of request bodies.
--
--   wrk ... -s perf/decision.lua URL -- BODIES_FILE VERSION ACCEPT_LANGUAGE
--
-- BODIES_FILE holds one JSON body per line (load.sh writes it, one user id per line, and
-- sends the same bodies with curl to capture the reply nginx serves). VERSION is the
-- X-Decision-Version header and ACCEPT_LANGUAGE the Accept-Language header; an empty
-- argument leaves the header out.
--
-- Every request is formatted once, in init(): request() only hands back the next
-- prebuilt string, so wrk's Lua allocates nothing per request. wrk runs on its own CPU
-- and is close to being the limit of the comparison; anything done per request here
-- would be charged to both servers alike but would lower the ceiling. There is no
-- response() hook for the same reason (it makes wrk parse every reply's headers into
-- Lua): wrk counts replies with status >= 400 itself ("Non-2xx or 3xx responses"), and
-- load.sh reads decisiond's own status counters for the rest.

local requests = {}
local count = 0
local next_index = 0

function init(args)
  local bodies_file, version, accept_language = args[1], args[2], args[3]
  if bodies_file == nil or bodies_file == "" then
    error("decision.lua: usage: -s decision.lua URL -- BODIES_FILE VERSION ACCEPT_LANGUAGE")
  end
  for body in io.lines(bodies_file) do
    if body ~= "" then
      local headers = { ["Content-Type"] = "application/json" }
      if version ~= nil and version ~= "" then headers["X-Decision-Version"] = version end
      if accept_language ~= nil and accept_language ~= "" then
        headers["Accept-Language"] = accept_language
      end
      count = count + 1
      requests[count] = wrk.format("POST", wrk.path, headers, body)
    end
  end
  if count == 0 then error("decision.lua: no request bodies in " .. bodies_file) end
end

function request()
  next_index = next_index + 1
  if next_index > count then next_index = 1 end
  return requests[next_index]
end
