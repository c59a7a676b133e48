# Quire — build, demo, test and install.
#   make demo     install missing Debian packages, build quire (release), run the tour on SampleVault
#   make test     install missing Debian packages, build, run the whole test suite
#   make install  copy the release binary to $(PREFIX)/bin (PREFIX=/usr/local by default), and the
#                 bash, zsh and fish completion scripts under $(PREFIX)/share

PREFIX ?= /usr/local
SWIFT ?= swift
# Debian packages needed to build (C libraries) and to test (real git servers on loopback).
BUILD_PACKAGES = pkg-config git libgit2-dev libyaml-dev libicu-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libsodium-dev
TEST_PACKAGES = openssh-server openssh-client nginx fcgiwrap openssl python3 vim zsh fish fzf chromium neovim emacs-nox elpa-eglot
BENCH_PACKAGES = ripgrep hyperfine
# The Swift runtime and Foundation linked in statically: a command starts in about half the
# time (no dynamic symbol resolution of the Swift libraries), which is most of a small query.
RELEASE = -c release --static-swift-stdlib

.PHONY: all deps test-deps bench-deps build release demo test test-asan install install-completions uninstall clean bench

all: release

deps:
	@sh .ci/install-packages $(BUILD_PACKAGES)

test-deps: deps
	@sh .ci/install-packages $(TEST_PACKAGES)

bench-deps: deps
	@sh .ci/install-packages $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE)

demo: release
	@sh scripts/demo.sh "$$($(SWIFT) build $(RELEASE) --show-bin-path)/quire"

# The tests get a temporary folder of their own (TMPDIR), removed when they end, with whatever
# a test killed halfway left there: a test run leaves nothing behind. Other users may pass
# through it (a test runs quire as user nobody in a folder it gives that user).
test: test-deps
	$(SWIFT) build
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/quire-tests.XXXXXX") && chmod 755 "$$scratch" && \
	echo "TMPDIR=$$scratch $(SWIFT) test" && \
	TMPDIR="$$scratch" $(SWIFT) test; status=$$?; rm -rf "$$scratch"; exit $$status

# The built quire under AddressSanitizer in a generated vault (Tests/Sanitized/run.sh): an
# over-read that a release build survives most of the time fails here every time. CI runs it
# after `make test`.
test-asan: test-deps
	SWIFT=$(SWIFT) sh Tests/Sanitized/run.sh

install: release
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/quire" "$(DESTDIR)$(PREFIX)/bin/quire"
	$(MAKE) install-completions

# The scripts come from the binary itself (QUIRE: the quire to ask, the installed one by default).
QUIRE ?= $(DESTDIR)$(PREFIX)/bin/quire
SHARE = $(DESTDIR)$(PREFIX)/share
install-completions:
	install -d "$(SHARE)/bash-completion/completions" "$(SHARE)/zsh/site-functions" "$(SHARE)/fish/vendor_completions.d"
	"$(QUIRE)" completion bash > "$(SHARE)/bash-completion/completions/quire"
	"$(QUIRE)" completion zsh > "$(SHARE)/zsh/site-functions/_quire"
	"$(QUIRE)" completion fish > "$(SHARE)/fish/vendor_completions.d/quire.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/quire" "$(SHARE)/bash-completion/completions/quire" \
	      "$(SHARE)/zsh/site-functions/_quire" "$(SHARE)/fish/vendor_completions.d/quire.fish"

bench: bench-deps release
	@sh Benchmarks/search.sh

clean:
	rm -rf .build
