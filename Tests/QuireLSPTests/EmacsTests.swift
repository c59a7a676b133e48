import Foundation
import Testing

/// `emacs` with eglot, if both are installed (Debian `emacs-nox` and `elpa-eglot`, in the
/// Makefile's TEST_PACKAGES; Emacs 29 and later has eglot built in): the path of `emacs`.
let emacsWithEglot: String? = {
    guard let emacs = ["/usr/bin/emacs", "/usr/local/bin/emacs"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: emacs)
    process.arguments = ["--batch", "--eval", "(kill-emacs (if (require 'eglot nil t) 0 1))"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? emacs : nil
}()

/// A second real editor end to end: Emacs in batch mode with the eglot block of
/// Docs/editors.md completes a link, hovers it, follows it, lists its references and saves
/// (the save stamps the note through `willSaveWaitUntil`); the file on disk is checked.
@Suite struct EmacsTests {
    /// The test's steps; failures end Emacs with exit code 3. Without the markdown-mode package
    /// (not part of Emacs 28) a stand-in mode of that name opens `.md` files, as the package does.
    static let steps = #"""
    (defun step-fail (message)
      (princ (concat "STEP FAILED: " message "\n") #'external-debugging-output)
      (kill-emacs 3))
    (unless (fboundp 'markdown-mode)
      (define-derived-mode markdown-mode text-mode "Markdown")
      (add-to-list 'auto-mode-alist '("\\.md\\'" . markdown-mode)))
    ;; What an interactive Emacs does at start-up before the init file: activate the packages.
    (package-initialize)
    (load (getenv "QUIRE_INIT"))
    (find-file (expand-file-name "index.md" (getenv "VAULT")))
    ;; eglot-ensure connects after the command that opened the file.
    (run-hooks 'post-command-hook)
    (let ((deadline (+ (float-time) 15)))
      (while (and (not (eglot-current-server)) (< (float-time) deadline))
        (accept-process-output nil 0.05)))
    (unless (eglot-current-server) (step-fail "the server did not start"))
    ;; Completion at point after "[[Woo": the link in the vault's form.
    (goto-char (point-max))
    (insert "Ask the [[Woo")
    (let ((completion-auto-help nil)) (completion-at-point))
    (unless (equal (buffer-substring (line-beginning-position) (line-end-position)) "Ask the [[woody]]")
      (step-fail (concat "completed line: " (buffer-substring (line-beginning-position) (line-end-position)))))
    ;; Hover on the link.
    (backward-char 4)
    (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover (eglot--TextDocumentPositionParams))))
      (unless (string-match-p "Woody Pride" (format "%S" hover)) (step-fail (format "hover: %S" hover))))
    ;; References: both links of this buffer (the unsaved one included).
    (let ((refs (xref-backend-references (xref-find-backend) (xref-backend-identifier-at-point (xref-find-backend)))))
      (unless (= (length refs) 2) (step-fail (format "references: %d" (length refs)))))
    ;; Save: eglot asks for the stamp first.
    (save-buffer)
    ;; Definition: the linked note opens.
    (goto-char (point-min))
    (search-forward "[[wo")
    (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
    (unless (string-suffix-p "/woody.md" (buffer-file-name)) (step-fail (concat "definition opened " (buffer-file-name))))
    (kill-emacs 0)
    """#

    @Test(.enabled(if: emacsWithEglot != nil, "needs emacs with eglot (Debian emacs-nox and elpa-eglot, in TEST_PACKAGES)"))
    func completeHoverReferencesSaveAndFollowInEmacs() throws {
        let woody = "---\ntitle: Woody Pride\naliases: [Sheriff]\nupdatedAt: 2026-01-01T00:00:00+00:00\n---\nThe sheriff.\n"
        let index = "---\ntitle: Index\nupdatedAt: 2026-01-01T00:00:00+00:00\n---\nSee [[woody]] now.\n"
        let vault = try LSPHarness.vault(["woody.md": woody, "index.md": index])
        let scratch = vault.deletingLastPathComponent()
        let initFile = scratch.appendingPathComponent("init.el")
        let stepsFile = scratch.appendingPathComponent("steps.el")
        try LSPHarness.write(try EditorRun.documentedSnippet("elisp"), to: initFile)
        try LSPHarness.write(Self.steps, to: stepsFile)

        try EditorRun.run(try #require(emacsWithEglot), ["--batch", "-l", stepsFile.path], in: vault,
                          environment: ["QUIRE_INIT": initFile.path])
        // Saved with the completed link and stamped at save.
        #expect(try String(contentsOf: vault.appendingPathComponent("index.md"), encoding: .utf8)
            == "---\ntitle: Index\nupdatedAt: 2026-11-29T12:00:00+00:00\n---\nSee [[woody]] now.\nAsk the [[woody]]\n")
    }
}
