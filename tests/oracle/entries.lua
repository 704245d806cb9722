-- Test oracle: after `pandoc --citeproc`, write each reference-list entry as plain text,
-- one "id<TAB>text" line each, to the file named by ORACLE_OUT. Independent of vaultd.
function Pandoc(doc)
  local out = assert(io.open(os.getenv("ORACLE_OUT"), "w"))
  doc:walk({Div = function(div)
    local id = div.identifier:match("^ref%-(.+)$")
    if id then
      local text = pandoc.write(pandoc.Pandoc(div.content), "plain",
                                pandoc.WriterOptions{wrap_text = "wrap-none"})
      out:write(id .. "\t" .. text:gsub("%s+", " "):gsub("^%s+", ""):gsub("%s+$", "") .. "\n")
    end
  end})
  out:close()
  return doc
end
