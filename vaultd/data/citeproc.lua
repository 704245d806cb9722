-- vaultd's bridge to pandoc's citeproc (run as `pandoc -L citeproc.lua`, input ignored).
-- Reads the job named by VAULTD_CITEPROC_JOB:
--   {"styles": {name: path}, "locator": "<sentinel page>", "lang": "en-US" | null,
--    "tasks": [{"style": name, "bibliography": path, "ids": [...], "split": bool}]}
-- A task renders the works in one CSL-JSON file together: vaultd only groups works that
-- cannot affect each other's rendering (no shared names, see formats/citeproc.py). Each
-- work is cited once plainly and once with the sentinel page; "split" renders the cites
-- with the page in a second document, for styles whose output depends on cite position
-- (ibid). Results go to VAULTD_CITEPROC_OUT as
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

local function cite_para(id, page)
  local c = pandoc.Citation(id, "NormalCitation")
  if page then
    -- A bare locator is a page: the style's locale gives the label ("p.", "S.", none).
    c.suffix = pandoc.Inlines{pandoc.Str(","), pandoc.Space(), pandoc.Str(page)}
  end
  local para = pandoc.Para{pandoc.Cite({pandoc.Str("[@" .. id .. "]")}, {c})}
  return pandoc.Div({para}, pandoc.Attr("cite-" .. (page and "loc-" or "") .. id))
end

-- A note style's citation is a footnote: its text is the footnote's, not the marker.
local function intext(blocks)
  local note = nil
  pandoc.Blocks(blocks):walk({Note = function(n) note = note or n.content end})
  if note then return write(note, "plain") end
  return write(blocks, "plain")
end

local function run(job, style_path, bibliography, blocks)
  local meta = {bibliography = bibliography, csl = style_path,
                ["link-citations"] = false, ["link-bibliography"] = true}
  if job.lang and job.lang ~= pandoc.json.null then meta.lang = job.lang end
  return pandoc.utils.citeproc(pandoc.Pandoc(blocks, meta))
end

local function collect(doc, results)
  for _, b in ipairs(doc.blocks) do
    if b.t == "Div" and b.identifier == "refs" then
      for _, entry in ipairs(b.content) do
        local id = entry.t == "Div" and entry.identifier:match("^ref%-(.+)$")
        if id then
          results[id] = results[id] or {}
          results[id].markdown = write(entry.content, "commonmark")
          results[id].text = write(entry.content, "plain")
        end
      end
    elseif b.t == "Div" then
      local loc, id = b.identifier:match("^cite%-(loc%-)(.+)$")
      if not id then id = b.identifier:match("^cite%-(.+)$") end
      if id then
        results[id] = results[id] or {}
        results[id][loc and "intext_locator" or "intext"] = intext(b.content)
      end
    end
  end
end

function Pandoc(doc)
  local job = pandoc.json.decode(read_file(job_file), false)
  local out = {}
  for _, task in ipairs(job.tasks) do
    local style_path = job.styles[task.style]
    out[task.style] = out[task.style] or {}
    local results = out[task.style]
    local plain, located = {}, {}
    for _, id in ipairs(task.ids) do
      table.insert(plain, cite_para(id, nil))
      table.insert(located, cite_para(id, job.locator))
    end
    if task.split then
      collect(run(job, style_path, task.bibliography, plain), results)
      collect(run(job, style_path, task.bibliography, located), results)
    else
      for _, b in ipairs(located) do table.insert(plain, b) end
      collect(run(job, style_path, task.bibliography, plain), results)
    end
  end
  local f = assert(io.open(out_file, "w"))
  f:write(pandoc.json.encode(out))
  f:close()
  return doc
end
