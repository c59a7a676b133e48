// swift-tools-version:6.0
// Quire — a plain-text notes vault synced through git.
// No SwiftPM package dependencies: C libraries come from Debian (systemLibrary targets, and C
// targets that open libgit2 and ICU on first use); CPrefetch is a compiler hint, no library.
import PackageDescription

let package = Package(
    name: "Quire",
    products: [
        .executable(name: "quire", targets: ["quire"]),
    ],
    targets: [
        // libgit2's API (Debian libgit2-dev headers), the library itself opened with dlopen on first
        // use rather than linked: see Sources/CLibGit2/loader.c and Docs/architecture.md.
        .target(name: "CLibGit2"),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // cmark-gfm and its extensions (tables, task lists, strikethrough, autolinks), linked by the
        // module map: the pkg-config file of libcmark-gfm-dev names the extensions library too.
        .systemLibrary(name: "CCMark", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // libsodium (XChaCha20-Poly1305, secretstream, Argon2id, sealed boxes, BLAKE2b) for encrypted
        // remotes, linked by the module map; imported only by QuireCrypto.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // glibc's <malloc.h> (malloc_trim), part of libc; imported only by QuireSearch (FreedMemory).
        .systemLibrary(name: "CMalloc"),

        // ICU's word breaks (Debian libicu-dev) behind a C function with plain types: the system
        // ICU headers clash with Foundation's own copy of ICU when imported into Swift. libicuuc is
        // opened on first use (Sources/CICU/word_breaks.c), not linked.
        .target(name: "CICU"),
        // The compiler's prefetch hint behind an inline C function (Swift has none): a rebuild
        // asks for each term's slot as it reads the term (Sources/CPrefetch).
        .target(name: "CPrefetch"),
        .target(name: "QuireCore", dependencies: ["CYAML"]),
        .target(name: "QuireGit", dependencies: ["CLibGit2"]),
        .target(name: "QuireSearch", dependencies: ["QuireCore", "CICU", "CMalloc", "CPrefetch"]),
        .target(name: "QuireSync", dependencies: ["QuireCore", "QuireGit"]),
        // Markdown rendered for the terminal and as HTML pages of a static site (cmark-gfm).
        .target(name: "QuireRender", dependencies: ["QuireCore", "CCMark"]),
        // The cryptography of encrypted remotes over libsodium: sealed packs and manifests, content
        // digests, device identities, the keyring and what a device remembers of it.
        .target(name: "QuireCrypto", dependencies: ["QuireCore", "CSodium"]),
        // The application layer: each workflow (open a fresh catalog, rename with links, clone,
        // check, restore, sync, import/export) as a function taking typed options and returning
        // a typed report. Front ends (the CLI, the language server, the sync daemon) call it.
        .target(name: "QuireKit", dependencies: ["QuireCore", "QuireGit", "QuireSearch", "QuireSync", "QuireRender", "QuireCrypto"]),
        // The language server (`quire lsp`): JSON-RPC over stdio mapped onto QuireKit's workflows.
        .target(name: "QuireLSP", dependencies: ["QuireKit", "QuireSearch", "QuireCore"]),
        .target(name: "QuireCLI", dependencies: ["QuireKit", "QuireCore", "QuireSearch", "QuireSync", "QuireRender", "QuireLSP", "QuireCrypto"]),
        .executableTarget(name: "quire", dependencies: ["QuireCLI"]),

        // What several test targets share: the built binary's place, a seeded generator, a program's output.
        .target(name: "QuireTestSupport", path: "Tests/QuireTestSupport"),
        .testTarget(name: "QuireCoreTests", dependencies: ["QuireCore", "QuireTestSupport"]),
        .testTarget(name: "QuireGitTests", dependencies: ["QuireGit", "QuireTestSupport"]),
        .testTarget(name: "QuireSearchTests", dependencies: ["QuireSearch", "QuireCore", "QuireTestSupport"]),
        .testTarget(name: "QuireSyncTests", dependencies: ["QuireSync", "QuireGit", "QuireCore", "QuireTestSupport"]),
        .testTarget(name: "QuireRenderTests", dependencies: ["QuireRender", "QuireCore"]),
        .testTarget(name: "QuireCryptoTests", dependencies: ["QuireCrypto", "QuireCore"]),
        .testTarget(name: "QuireKitTests", dependencies: ["QuireKit", "QuireSearch", "QuireSync", "QuireGit", "QuireCore", "QuireCrypto", "QuireTestSupport"]),
        // Starts the built `quire lsp` and speaks JSON-RPC to it (and drives headless Neovim).
        .testTarget(name: "QuireLSPTests", dependencies: ["QuireLSP", "QuireCore", "QuireTestSupport", "quire"]),
        // Runs the built `quire` end to end: depending on it makes `swift test` build what it runs.
        .testTarget(name: "QuireCLITests", dependencies: ["QuireCore", "QuireTestSupport", "quire"]),
    ],
    swiftLanguageModes: [.v6]
)
