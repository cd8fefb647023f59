# lam-overlay: top-level entry points.
#   make                 install deps, build the emulator + the default image, boot it, run lam-demo
#   make test            what CI runs (test/run-all, tier ci): the matrix on lam-u57,
#                        lam-u48 and lam-off, and the suites that need no other kernel
#   make test-full       every suite and every cell (tier full: five more kernels)
#   make check           the quick loop: host suites, lam-u57 on lam and lam-ctl (a few minutes)
#   make crosscheck      the emulator against Debian's 6.12 (mainline LAM)
#   make figures         docs/figures.md from the last full make test run (tools/lam-figures)
#   make bench           LAM's cost in instructions per system call (tools/lam-bench)
#   make listing         the instructions behind those counts, stock vs lam-u57 (tools/lam-insn-listing)
#   make fuzz SEED=N ITER=N [FUZZ_CELLS=REGEX]   the differential fuzzer, longer (test/lam_fuzz.c)
#   make mutants         every kernel mutant (test/mutants/): which test kills each; writes docs/mutants.md
#   make refresh         after editing overlay/: regenerate overlay-base/ and check series.d/ takes every hunk
#   make patches [PATCHES=DIR]   the overlay as a numbered patch series + quilt series file (series.d/)
#   make images          all variants (make -j2 images builds two at once)
#   make image VARIANT=V one variant
#   make run [VARIANT=V] [CPU=M]   interactive shell in a variant's image
#   make clean           this repo's build outputs (kernel builds, images, test binaries)
#   make distclean-cache the whole cache ($(LAM_CACHE))
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all
MAKEFLAGS += --no-print-directory

# The cache and the variants by tools/lib/common.sh's rules, defined there once
TOP := $(patsubst %/,%,$(dir $(abspath $(firstword $(MAKEFILE_LIST)))))
common = $(shell bash -c '. "$$0" && $(1)' $(TOP)/tools/lib/common.sh)
ifeq ($(origin LAM_CACHE),undefined)
LAM_CACHE := $(call common,printf %s "$$lam_cache")
endif
export LAM_CACHE
VARIANTS := $(call common,lam_variants)
DEFAULT_VARIANT := lam-u57
VARIANT ?= $(DEFAULT_VARIANT)
CPU ?=
EMU := $(LAM_CACHE)/emulator-path

.PHONY: all deps emulator tree image images demo test test-full check figures crosscheck bench listing fuzz mutants refresh patches run clean distclean-cache check-variant \
	$(addprefix image-,$(VARIANTS))

all: demo

deps: | $(LAM_CACHE)
	@tools/install-deps build

$(LAM_CACHE):
	@mkdir -p $@

# The LAM emulator (tools/qemu-lam/build prints its path last).  Without it
# the main job (showing LAM) cannot be done: make fails with the reason,
# unless the user asks for the LAM-less path with LAM_NO_EMULATOR=1.
emulator: deps
	@if [[ -n "$${LAM_NO_EMULATOR-}" ]]; then \
		echo "make: LAM_NO_EMULATOR is set: no LAM emulator; the demo runs on a CPU without LAM" >&2; \
		echo - >$(EMU).tmp; \
	elif p=$$(tools/qemu-lam/build </dev/null | tail -n 1) && [[ -x $$p ]]; then \
		echo "$$p" >$(EMU).tmp; \
	else \
		echo "make: error: the LAM emulator could not be built (tools/qemu-lam/build, above); without it there is no LAM CPU to show LAM on. LAM_NO_EMULATOR=1 make shows the LAM-less path instead." >&2; \
		exit 1; \
	fi; \
	mv -f $(EMU).tmp $(EMU)

# The shared, overlaid tree: prepared once, before any (parallel) variant build.
tree: deps
	@tools/build-image --tree >/dev/null

ifneq ($(filter image run,$(MAKECMDGOALS)),)
ifneq ($(words $(VARIANT)),1)
$(error unknown VARIANT '$(VARIANT)' (known: $(VARIANTS)))
endif
ifeq ($(filter $(VARIANT),$(VARIANTS)),)
$(error unknown VARIANT '$(VARIANT)' (known: $(VARIANTS)))
endif
endif
check-variant:
	@case " $(VARIANTS) " in *" $(VARIANT) "*) ;; \
	*) echo "make: unknown VARIANT '$(VARIANT)' (known: $(VARIANTS))" >&2; exit 1 ;; esac

image: check-variant tree
	@tools/build-image $(VARIANT) >/dev/null

images: $(addprefix image-,$(VARIANTS))
$(addprefix image-,$(VARIANTS)): image-%: tree
	@tools/build-image $* >/dev/null

demo: emulator
	@$(MAKE) image VARIANT=$(DEFAULT_VARIANT)
	@tools/lam-demo $(DEFAULT_VARIANT)

run: check-variant
	@$(LAM_CACHE)/images/$(VARIANT)/run $(if $(CPU),--cpu $(CPU)) \
		|| { [[ -x $(LAM_CACHE)/images/$(VARIANT)/run ]] || echo "make: no image for $(VARIANT) yet: make image VARIANT=$(VARIANT)" >&2; exit 1; }

# TEST_ARGS go to test/run-matrix (e.g. TEST_ARGS="--cells 'lam-u48/.*'");
# LAM_SUITES="style matrix" runs only those suites.  The tiers: test/run-all.
test: deps
	@tools/install-deps test
	@LAM_TIER=ci LAM_SUITES='$(LAM_SUITES)' test/run-all $(TEST_ARGS)

test-full: deps
	@tools/install-deps test
	@LAM_TIER=full LAM_SUITES='$(LAM_SUITES)' test/run-all $(TEST_ARGS)

# The loop after one kernel change (docs/testing.md, "Test tiers"): the
# host suites that build nothing, then the default variant on the LAM CPU
# and on its LAM-less control, with the control's must-fail cell.
CHECK_SUITES := counting style abi-doc patches matrix
CHECK_CELLS := lam-u57/lam|lam-u57/lam-ctl|lam-u57/lam-ctl!claims-lam-cpu
check: deps
	@tools/install-deps test
	@LAM_TIER=ci LAM_SUITES='$(CHECK_SUITES)' test/run-all --cells '$(CHECK_CELLS)'

figures:
	@tools/lam-figures

# Cross-check of the emulator with an independent kernel: Debian's
# linux-source-6.12 (mainline LAM) on the LAM CPU models; not part of
# `make test` (one more kernel build).  See test/crosscheck/README.md.
crosscheck: emulator
	@tools/crosscheck-mainline

# The table of instructions per call: pristine tree, lam-off, lam-u57 and
# lam-u48 on the LAM CPU and its control, every row run twice.
# BENCH_ARGS: e.g. "--iters 40000" or "--runs 1".
bench: emulator tree
	@tools/lam-bench $(BENCH_ARGS)

# What those counts are made of: one call of each operation single-stepped
# (gdb on QEMU's debugger stub) on the pristine tree and on lam-u57, and
# where the executed instructions differ.  LISTING_ARGS: e.g.
# "--cpu lam --lam u57_tagged" or "--ops read-1,uname".
listing: emulator tree
	@tools/install-deps test
	@tools/lam-insn-listing $(LISTING_ARGS)

# The differential syscall fuzzer (in make test: seed 1, 200 iterations per
# mode) for longer, in the matrix's cells (their facts decide what it expects).
SEED ?= 1
ITER ?= 5000
FUZZ_CELLS ?= lam-u57/lam|lam-u48/lam-la57|lam-u57/nolam
fuzz: emulator tree
	@tools/install-deps test
	@[[ "$(SEED)" =~ ^[0-9]+$$ && "$(ITER)" =~ ^[1-9][0-9]*$$ ]] || \
		{ echo "make fuzz: SEED and ITER want numbers (SEED=$(SEED) ITER=$(ITER))" >&2; exit 2; }
	@test/run-matrix --cells '$(FUZZ_CELLS)' --progs lam_fuzz --timeout 3600 \
		--prog-args "LAM_FUZZ_SEED=$(SEED) LAM_FUZZ_ITER=$(ITER)"

# Every mutant of test/mutants/ built and run in its cells (make test runs
# the control and two of them); the table goes to docs/mutants.md.
# MUTANTS_ARGS: e.g. "--only NAME" (then no report is written).
mutants: emulator tree
	@tools/install-deps test
	@test/mutants/run $(or $(MUTANTS_ARGS),--all --report docs/mutants.md)

# After an edit under overlay/: overlay-base/ from the pristine tree, then
# the series made once into a scratch directory, which fails when a hunk
# is in no patch of series.d/ or a selector takes none.
refresh: deps
	@ksrc=$$(tools/fetch-kernel "$$(cat overlay-base/VERSION)" | tail -n 1) && \
		tools/lam-overlay refresh "$$ksrc"
	@tmp=$$(mktemp -d) && trap 'rm -rf -- "$$tmp"' EXIT && \
		tools/lam-patches --out "$$tmp/series" >/dev/null && \
		echo "make refresh: overlay-base/ matches overlay/, series.d/ takes every hunk"

# The overlay as a reviewable series (tools/lam-patches; series.d/ says how
# it is split): DIR/NNNN-*.patch in git format-patch form and DIR/series.
PATCHES ?= patches
patches: deps
	@tools/lam-patches --out '$(PATCHES)'

clean:
	@echo "removing kernel builds, images and test binaries: $(LAM_CACHE)/{build,images,test-bin}"
	rm -rf $(LAM_CACHE)/build $(LAM_CACHE)/images $(LAM_CACHE)/test-bin

distclean-cache:
	@echo "removing the whole cache $(LAM_CACHE): downloaded debs, pristine and overlaid trees, builds, images, the LAM emulator, ccache"
	rm -rf $(LAM_CACHE)
