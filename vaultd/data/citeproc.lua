-- vaultd's bridge to pandoc's citeproc (run as `pandoc -L citeproc.lua`, input ignored).
-- Reads the job named by VAULTD_CITEPROC_JOB:
--   {"styles": [{"name": ..., "path": ...}], "items": [{"id": ..., "path": ...}],
--    "locator": "<sentinel page>", "lang": "en-US" | null}
-- Each item's path is a CSL-JSON file holding that one item. Every item is rendered on its
-- own (a note cites one work: no year suffixes or numbering across works), in every style,
-- and the results go to VAULTD_CITEPROC_OUT as
--   {style: {id: {"markdown", "text", "intext", "intext_locator"}}}.
local job_file = assert(os.getenv("VAULTD_CITEPROC_JOB"), "VAULTD_CITEPROC_JOB not set")
local out_file = assert(os.getenv("VAULTD_CITEPROC_OUT"), "VAULTD_CITEPROC_OUT not set")
local opts = pandoc.WriterOptions{wrap_text = "wrap-none"}

local UNWRAP = {["csl-right-inline"] = true, ["csl-block"] = true, ["csl-indent"] = true,
                ["nocase"] = true}

-- The entry without the list label ("[1]") a reference list would print before it.
local function clean(blocks)
  return pandoc.Blocks(blocks):walk({
    Span = function(s)
      if s.classes:includes("csl-left-margin") then return {} end
      for _, c in ipairs(s.classes) do
        if UNWRAP[c] then return s.content end
      end
    end,
  })
end

local function write(blocks, format)
  local text = pandoc.write(pandoc.Pandoc(clean(blocks)), format, opts)
  return (text:gsub("%s+$", ""))
end

local function read_file(path)
  local f = assert(io.open(path, "r"))
  local data = f:read("a")
  f:close()
  return data
end

local function citation(id, suffix)
  local c = pandoc.Citation(id, "NormalCitation")
  if suffix then c.suffix = pandoc.Inlines{pandoc.Str(","), pandoc.Space(), pandoc.Str("p."),
                                          pandoc.Space(), pandoc.Str(suffix)} end
  return pandoc.Para{pandoc.Cite({pandoc.Str("[@" .. id .. "]")}, {c})}
end

function Pandoc(doc)
  local job = pandoc.json.decode(read_file(job_file), false)
  local out = {}
  for _, style in ipairs(job.styles) do
    local per = {}
    for _, item in ipairs(job.items) do
      local meta = {bibliography = item.path, csl = style.path,
                    ["link-citations"] = false, ["link-bibliography"] = true}
      if job.lang and job.lang ~= pandoc.json.null then meta.lang = job.lang end
      local d = pandoc.utils.citeproc(pandoc.Pandoc(
        {citation(item.id, nil), citation(item.id, job.locator)}, meta))
      local r = {}
      local paras = {}
      for _, b in ipairs(d.blocks) do
        if b.t == "Para" then
          table.insert(paras, b)
        elseif b.t == "Div" and b.identifier == "refs" then
          for _, entry in ipairs(b.content) do
            if entry.t == "Div" then
              r.markdown = write(entry.content, "commonmark")
              r.text = write(entry.content, "plain")
            end
          end
        end
      end
      r.intext = paras[1] and write({paras[1]}, "plain") or ""
      r.intext_locator = paras[2] and write({paras[2]}, "plain") or ""
      per[item.id] = r
    end
    out[style.name] = per
  end
  local f = assert(io.open(out_file, "w"))
  f:write(pandoc.json.encode(out))
  f:close()
  return doc
end
