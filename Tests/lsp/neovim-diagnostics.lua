-- Opens a page in headless Neovim with its built-in LSP client running `glossary lsp`, waits for the page's
-- diagnostics and writes them to a file, one a line: "line:col code severity message" (0-based line, byte column).
-- Environment: GLOSSARY_BIN, GLOSSARY_SITE (the site's folder), GLOSSARY_PAGE (a file in it), GLOSSARY_OUT.
local bin, root, page, out = os.getenv("GLOSSARY_BIN"), os.getenv("GLOSSARY_SITE"), os.getenv("GLOSSARY_PAGE"), os.getenv("GLOSSARY_OUT")
vim.cmd("edit " .. vim.fn.fnameescape(page))
local buffer = vim.api.nvim_get_current_buf()
-- vim.lsp.start (Neovim 0.8+) is start_client and buf_attach_client in one; Debian 12 has 0.7.
local client = vim.lsp.start_client({ name = "glossary", cmd = { bin, "lsp" }, root_dir = root })
vim.lsp.buf_attach_client(buffer, client)
-- The diagnostics' arrival is the event waited for; the limit only keeps a broken server from hanging the test.
local arrived = vim.wait(120000, function() return #vim.diagnostic.get(buffer) > 0 end, 20)
local lines = {}
if not arrived then table.insert(lines, "no diagnostics arrived") end
for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
  local code = diagnostic.code or (diagnostic.user_data and diagnostic.user_data.lsp and diagnostic.user_data.lsp.code) or ""
  table.insert(lines, string.format("%d:%d %s %d %s", diagnostic.lnum, diagnostic.col, code, diagnostic.severity, diagnostic.message))
end
vim.fn.writefile(lines, out)
vim.lsp.stop_client(client)
vim.cmd("qall!")
