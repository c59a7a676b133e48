import Foundation
import Testing

/// `nvim` on the PATH, if Neovim is installed (Debian `neovim`, in the Makefile's TEST_PACKAGES).
let neovim: String? = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A real editor end to end: headless Neovim with the configuration of Docs/editors.md (its
/// first `lua` block in `lua/quire.lua`, required from `init.lua`) opens a note in a temporary
/// vault, completes a front-matter key with CTRL-X CTRL-O, completes a link, hovers it with K, lists its references with grr,
/// follows it with CTRL-], renames the note through the link with grn, and saves; the files on
/// disk are checked.
@Suite struct NeovimTests {
    /// What every test's steps start with: `fail` (ends Neovim with exit code 3), `keys` (types
    /// keys as a user would, `nvim_feedkeys`), `client`, and the wait for the server.
    static let prelude = #"""
    local function fail(message)
      io.stderr:write('STEP FAILED: ' .. message .. '\n')
      vim.cmd('cquit 3')
    end
    local function keys(text, mode)
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(text, true, false, true), mode or 'x', false)
    end
    local function client()
      for _, c in pairs(vim.lsp.buf_get_clients(0)) do
        if c.name == 'quire' and c.initialized then return c end
      end
    end
    if not vim.wait(15000, function() return client() ~= nil end, 20) then fail('the server did not start') end

    """#

    /// The test's steps, run by Neovim after start-up. The keys the documented block maps are typed.
    static let steps = prelude + #"""
    if not vim.wait(5000, function() return vim.bo.omnifunc == 'v:lua.vim.lsp.omnifunc' end, 20) then
      fail('omnifunc is ' .. vim.bo.omnifunc)
    end
    if vim.bo.tagfunc ~= 'v:lua.vim.lsp.tagfunc' then fail('tagfunc is ' .. vim.bo.tagfunc) end
    for _, key in ipairs({ 'K', 'gd', 'grr', 'grn', 'gra' }) do
      if vim.fn.maparg(key, 'n', false, true).buffer ~= 1 then fail('no buffer-local ' .. key) end
    end
    -- CTRL-X CTRL-O on a front-matter line "alia": the first item is inserted (headless Neovim
    -- draws no menu, where CTRL-Y would insert the character above; with a menu, CTRL-Y takes it).
    vim.api.nvim_buf_set_lines(0, 2, 2, false, { 'alia' })
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    local shown = false
    local function accept(tries)
      if #vim.fn.complete_info({ 'items' }).items > 0 then
        shown = true
        keys(vim.fn.pumvisible() == 1 and '<C-y><Esc>' or '<Esc>', 'n')
      elseif tries == 0 then
        keys('<Esc>', 'n')
      else
        vim.defer_fn(function() accept(tries - 1) end, 20)
      end
    end
    vim.defer_fn(function() accept(500) end, 20)
    keys('A<C-x><C-o>', 'nx!')
    if not shown then fail('CTRL-X CTRL-O offered nothing') end
    if vim.api.nvim_buf_get_lines(0, 2, 3, false)[1] ~= 'aliases: ' then
      fail('completed key: ' .. vim.api.nvim_buf_get_lines(0, 2, 3, false)[1])
    end
    vim.api.nvim_buf_set_lines(0, 2, 3, false, {})
    -- A link: "[[shrf" (the alias of woody.md) completes fuzzily; the first item is taken.
    vim.api.nvim_buf_set_lines(0, 4, 5, false, { 'Ask the [[shrf' })
    local params = { textDocument = vim.lsp.util.make_text_document_params(0), position = { line = 4, character = 14 } }
    local answers = vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 5000) or {}
    local items = {}
    for _, answer in pairs(answers) do
      if answer.result then items = answer.result.items or answer.result end
    end
    if #items == 0 then fail('no completion items') end
    vim.lsp.util.apply_text_edits({ items[1].textEdit }, 0, client().offset_encoding or 'utf-16')
    if vim.api.nvim_buf_get_lines(0, 4, 5, false)[1] ~= 'Ask the [[woody]]' then
      fail('completed line: ' .. vim.api.nvim_buf_get_lines(0, 4, 5, false)[1])
    end
    -- K on the link: the hover shows the linked note.
    vim.api.nvim_win_set_cursor(0, { 5, 11 })
    keys('K')
    local function hover()
      for _, win in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(win).relative ~= '' then
          return table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
        end
      end
    end
    if not vim.wait(5000, function() return hover() ~= nil end, 20) then fail('K showed no hover') end
    if not hover():find('Woody Pride', 1, true) then fail('hover: ' .. hover()) end
    -- grr: the backlinks of woody.md in the quickfix list (from buzz.md and this note).
    vim.cmd('buffer index.md')
    vim.api.nvim_win_set_cursor(0, { 5, 11 })
    keys('grr')
    if not vim.wait(5000, function() return #vim.fn.getqflist() > 0 end, 20) then fail('grr listed no references') end
    vim.cmd('cclose')
    vim.cmd('buffer index.md')
    -- CTRL-] follows the link through tagfunc.
    vim.api.nvim_win_set_cursor(0, { 5, 11 })
    keys('<C-]>')
    if not vim.wait(5000, function() return vim.fn.expand('%:t') == 'woody.md' end, 20) then fail('CTRL-] did not open woody.md') end
    -- Back, and rename the note through the link: grn asks for the new name.
    vim.cmd('buffer index.md')
    if not vim.wait(5000, function() return client() ~= nil end, 20) then fail('index.md lost its client') end
    vim.api.nvim_win_set_cursor(0, { 5, 11 })
    -- The user's answer to the prompt (headless Neovim reads no typed answer to input()).
    vim.ui.input = function(_, answer) answer('Sheriff Woody') end
    keys('grn')
    local renamed = vim.env.VAULT .. '/sheriff-woody.md'
    if not vim.wait(10000, function() return vim.loop.fs_stat(renamed) ~= nil end, 20) then fail('the note was not renamed') end
    -- Save everything (the save stamps each note).
    vim.cmd('wall')
    vim.cmd('qall!')
    """#

    @Test(.enabled(if: neovim != nil, "needs nvim (Debian neovim, in TEST_PACKAGES)"))
    func completeFollowRenameAndSaveInNeovim() throws {
        let woody = "---\ntitle: Woody Pride\naliases: [Sheriff]\nupdatedAt: 2026-01-01T00:00:00+00:00\n---\nThe sheriff.\n"
        let buzz = "---\ntitle: Buzz\n---\nFriend of [[woody]].\n"
        let index = "---\ntitle: Index\nupdatedAt: 2026-01-01T00:00:00+00:00\n---\n\n"
        let vault = try LSPHarness.vault(["woody.md": woody, "buzz.md": buzz, "index.md": index])
        try Self.run(Self.steps, opening: "index.md", in: vault)

        let read = { (path: String) in try String(contentsOf: vault.appendingPathComponent(path), encoding: .utf8) }
        #expect(!FileManager.default.fileExists(atPath: vault.appendingPathComponent("woody.md").path))
        // The renamed note: new title, stamped at save, body untouched.
        #expect(try read("sheriff-woody.md")
            == "---\ntitle: Sheriff Woody\naliases: [Sheriff]\nupdatedAt: 2026-11-29T12:00:00+00:00\n---\nThe sheriff.\n")
        // Links elsewhere follow; a note without updatedAt gains none (only its link text changes).
        #expect(try read("buzz.md") == "---\ntitle: Buzz\n---\nFriend of [[sheriff-woody]].\n")
        // The completed link, rewritten by the rename, saved with the stamp.
        #expect(try read("index.md")
            == "---\ntitle: Index\nupdatedAt: 2026-11-29T12:00:00+00:00\n---\nAsk the [[sheriff-woody]]\n")
    }

    /// An unsaved edit in Neovim, then a sync that brings another device's change of the same
    /// note: the server merges it into the buffer, and the write saves both.
    static let syncSteps = prelude + #"""
    local function line(n) return vim.api.nvim_buf_get_lines(0, n, n + 1, false)[1] end
    vim.api.nvim_buf_set_lines(0, 4, 5, false, { 'Line uno.' })
    local output = vim.fn.system({ 'quire', 'sync' })
    if vim.v.shell_error ~= 0 then fail('quire sync failed: ' .. output) end
    if not vim.wait(10000, function() return line(6) == 'Line three, from the desktop.' end, 20) then
      fail('the change on disk was not merged into the buffer: ' .. table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), ' | '))
    end
    if line(4) ~= 'Line uno.' then fail('the unsaved edit was lost: ' .. line(4)) end
    -- Neovim asks before writing over a file changed since it was read (a person answers yes:
    -- the buffer holds that change now); headless, the write's steps are taken one by one.
    vim.cmd('doautocmd BufWritePre')
    vim.fn.writefile(vim.api.nvim_buf_get_lines(0, 0, -1, false), vim.api.nvim_buf_get_name(0))
    vim.cmd('qall!')
    """#

    @Test(.enabled(if: neovim != nil, "needs nvim (Debian neovim, in TEST_PACKAGES)"))
    func aSyncUnderAnUnsavedBufferIsMergedIntoItInNeovim() throws {
        let plan = "---\ntitle: Plan\nupdatedAt: 2026-11-01T10:00:00+00:00\n---\nLine one.\nLine two.\nLine three.\n"
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": plan])
        try LSPHarness.write(plan.replacingOccurrences(of: "Line three.", with: "Line three, from the desktop.")
            .replacingOccurrences(of: "2026-11-01", with: "2026-11-20"), to: desktop.appendingPathComponent("plan.md"))
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try Self.run(Self.syncSteps, opening: "plan.md", in: laptop)
        #expect(try String(contentsOf: laptop.appendingPathComponent("plan.md"), encoding: .utf8)
            == "---\ntitle: Plan\nupdatedAt: 2026-11-29T12:00:00+00:00\n---\nLine uno.\nLine two.\nLine three, from the desktop.\n")
    }

    /// Runs headless Neovim in `vault` with the documented configuration (the doc's first `lua`
    /// block pasted into `lua/quire.lua`, required from `init.lua`), opening `file`, and `steps`
    /// after start-up; fails unless it exits 0 within a minute.
    static func run(_ steps: String, opening file: String, in vault: URL) throws {
        let scratch = vault.deletingLastPathComponent()
        let configuration = scratch.appendingPathComponent("config/nvim")
        try LSPHarness.write(try EditorRun.documentedSnippet("lua"), to: configuration.appendingPathComponent("lua/quire.lua"))
        try LSPHarness.write("require('quire')\n", to: configuration.appendingPathComponent("init.lua"))
        let stepsFile = scratch.appendingPathComponent("steps.lua")
        try LSPHarness.write(steps, to: stepsFile)
        let scratchPath = { (name: String) in scratch.appendingPathComponent(name).path }
        try EditorRun.run(try #require(neovim), ["--headless", "-n", "-i", "NONE", "--cmd", "set noswapfile",
                                                 file, "-c", "luafile " + stepsFile.path],
                          in: vault, environment: ["XDG_CONFIG_HOME": scratchPath("config"), "XDG_DATA_HOME": scratchPath("data"),
                                                   "XDG_STATE_HOME": scratchPath("state"), "XDG_CACHE_HOME": scratchPath("cache")])
    }
}
