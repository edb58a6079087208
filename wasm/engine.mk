# engine.mk - build NetHack 3.6.7 + the semantic driver for one target.
#
#   make -f wasm/engine.mk TARGET=native   -> build/native/nhdriver (+ data/, identity.json)
#   make -f wasm/engine.mk TARGET=wasm     -> build/wasm/out/{jspi,asyncify}/nethack.{js,wasm}
#                                             (+ build/wasm/out/identity.json)
#   make -f wasm/engine.mk TARGET=asan build/asan/nhdriver
#                                          -> the native twin under ASan + UBSan, for
#                                             the stateful fuzzer (tests/fuzz)
#
# Each target gets its own patched copy of the pristine tree, because
# NetHack's utilities write generated headers and data into ../include and
# ../dat, and those files are target-dependent (struct sizes, raw longs).
# The utilities are therefore compiled with the target's own compiler; the
# WASM ones run under Node.

ROOT    := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
PRISTINE := $(ROOT)/build/nethack-3.6.7
TARGET  ?= native
OUT     := $(ROOT)/build/$(TARGET)
NH      := $(OUT)/nh
OBJ     := $(OUT)/obj
DRIVER  := $(ROOT)/wasm/driver
PATCHES := $(wildcard $(ROOT)/wasm/patches/*.patch)

# One fixed build date, so date.h (and with it the engine identity) is
# reproducible from the same sources.
export SOURCE_DATE_EPOCH := 1676851200

NH_DEFS := -DNNH_DRIVER -DNOTTYGRAPHICS '-DDEFAULT_WINDOW_SYS="nnh"' \
           -DNOMAIL -DDLB -DREPRODUCIBLE_BUILD -Dqsort=nnh_qsort
INCLUDES := -I$(NH)/include -I$(DRIVER)

ifeq ($(TARGET),wasm)
  CC      ?= emcc
  ifeq ($(origin CC),default)
    CC := emcc
  endif
  # -Os: the download is the cost that matters in a browser, and warm
  # step speed measured the same as -O2 (docs/BENCHMARKS.md).
  OPT     := -Os
  # The driver builds every response (6-7 KB of JSON a step): at -Os its
  # small writers (reserve, the byte loops of json_write.c) stay calls, and
  # the step measured ~25% slower than with the driver at -O2, for ~1% more
  # gzip bytes (docs/BENCHMARKS.md, issue 14). NetHack stays -Os, but for
  # its hot path just below.
  DRV_OPT := -O2
  # NetHack's own hot path, where a step spends its time once the driver
  # reuses unchanged sections (monster movement, vision, display, the
  # RNG): at -O2, +4-8% per step for ~10 KB gzip (docs/BENCHMARKS.md).
  HOT_OPT := -O2
  NH_HOT  := allmain attrib display dog dogmove hack isaac64 mhitu mon mondata monmove \
             monst mthrowu region rnd steed timeout trap uhitm vision
  # Bulk memory (every engine that has JSPI or Asyncify's targets has it):
  # memcpy/memset become memory.copy/memory.fill instead of byte loops in
  # WebAssembly; the driver clears and copies whole structs at every step.
  ARCH    := -mbulk-memory
  RUNUTIL := node --no-experimental-fetch
  UTIL_LDFLAGS := -sNODERAWFS=1 -sSINGLE_FILE=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1 \
                  --pre-js $(ROOT)/wasm/util-env.js
  EXE     := .js
else
  # clang, like emcc: C leaves the evaluation order of function arguments
  # unspecified, gcc goes right to left and clang left to right, and NetHack
  # is full of calls like mkobj_at(0, somex(r), somey(r)) whose arguments
  # draw random numbers. Same compiler family, same game.
  # native64 is a diagnostic build (valgrind needs 64-bit symbols here, and
  # DWARF 4: valgrind 3.19 cannot read clang 14's default DWARF 5);
  # the shipped native twin is 32-bit, like wasm32.
  CC      := clang
  OPT     := -O2
  ARCH    := $(if $(filter native64,$(TARGET)),-gdwarf-4,-m32)
  # asan: the same 32-bit twin with every game and driver object under
  # AddressSanitizer and UndefinedBehaviorSanitizer, stopping at the first
  # report. The utilities that generate data stay unsanitized: they only
  # run at build time.
  ifeq ($(TARGET),asan)
    OPT   := -O1
    SAN   := -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  endif
  RUNUTIL :=
  UTIL_LDFLAGS :=
  EXE     :=
  WARN_EXTRA :=
endif

CFLAGS_NH := $(OPT) $(ARCH) $(SAN) -w $(NH_DEFS) $(INCLUDES)
CFLAGS_DRV := $(or $(DRV_OPT),$(OPT)) $(ARCH) $(SAN) -std=gnu99 -Wall -Wextra -Wno-unused-parameter -Werror=missing-prototypes \
              -Wno-missing-field-initializers -Wno-sign-compare $(WARN_EXTRA) $(NH_DEFS) $(INCLUDES)

NH_SRCS := $(notdir $(wildcard $(PRISTINE)/src/*.c)) vis_tab.c
NH_OBJS := $(addprefix $(OBJ)/nh/,$(NH_SRCS:.c=.o)) $(OBJ)/nh/posixregex.o
DRV_SRCS := $(notdir $(wildcard $(DRIVER)/*.c))
DRV_OBJS := $(addprefix $(OBJ)/drv/,$(DRV_SRCS:.c=.o))
DRV_HDRS := $(wildcard $(DRIVER)/*.h)

GEN_HDRS := $(NH)/include/onames.h $(NH)/include/pm.h $(NH)/include/date.h \
            $(NH)/include/vis_tab.h

.PHONY: all
all: $(if $(filter wasm,$(TARGET)),$(OUT)/out/identity.json,$(OUT)/identity.json)

# ---- patched tree -------------------------------------------------------
$(NH)/.patched: $(PATCHES) $(PRISTINE)/.pristine
	rm -rf $(NH) $(OBJ)
	mkdir -p $(OUT)
	cp -a $(PRISTINE) $(NH)
	cp $(NH)/sys/share/lev_yacc.c $(NH)/sys/share/lev_lex.c \
	   $(NH)/sys/share/dgn_yacc.c $(NH)/sys/share/dgn_lex.c $(NH)/util/
	cp $(NH)/sys/share/lev_comp.h $(NH)/sys/share/dgn_comp.h $(NH)/include/
	for p in $(PATCHES); do patch -s -p1 -d $(NH) < $$p || exit 1; done
	@# the utilities' .js are CommonJS, whatever the repository's package.json says
	echo '{"type":"commonjs"}' > $(OUT)/package.json
	touch $@

# ---- utilities, built for the target ------------------------------------
UTIL := $(NH)/util
CFLAGS_UTIL := $(OPT) $(ARCH) -w $(NH_DEFS) -I$(NH)/include -I$(DRIVER)

$(UTIL)/makedefs$(EXE): $(NH)/.patched
	cd $(UTIL) && $(CC) $(CFLAGS_UTIL) -o makedefs$(EXE) makedefs.c \
	    ../src/monst.c ../src/objects.c $(UTIL_LDFLAGS)

$(GEN_HDRS) &: $(UTIL)/makedefs$(EXE)
	cd $(UTIL) && $(RUNUTIL) ./makedefs$(EXE) -o && $(RUNUTIL) ./makedefs$(EXE) -p \
	    && $(RUNUTIL) ./makedefs$(EXE) -v && $(RUNUTIL) ./makedefs$(EXE) -z

$(NH)/src/vis_tab.c: $(NH)/include/vis_tab.h

LEVCOMP_SRCS := lev_yacc.c lev_lex.c lev_main.c ../src/alloc.c panic.c \
                ../src/drawing.c ../src/decl.c ../src/monst.c ../src/objects.c
$(UTIL)/lev_comp$(EXE): $(GEN_HDRS)
	cd $(UTIL) && $(CC) $(CFLAGS_UTIL) -o lev_comp$(EXE) $(LEVCOMP_SRCS) $(UTIL_LDFLAGS)

$(UTIL)/dgn_comp$(EXE): $(GEN_HDRS)
	cd $(UTIL) && $(CC) $(CFLAGS_UTIL) -o dgn_comp$(EXE) dgn_yacc.c dgn_lex.c \
	    dgn_main.c ../src/alloc.c panic.c $(UTIL_LDFLAGS)

# The dlb archive format is plain text headers + raw file bytes, the same
# for every target, so the librarian is always a host program. (Its
# fopen_datafile arity mismatch is harmless there and traps under wasm.)
$(OUT)/host-dlb: $(GEN_HDRS)
	cd $(UTIL) && gcc -O1 -w $(NH_DEFS) -I$(NH)/include -o $@ dlb_main.c \
	    ../src/dlb.c ../src/alloc.c panic.c

DATDLB := help hh cmdhelp keyhelp history opthelp wizhelp dungeon tribute \
          bogusmon data engrave epitaph oracles options quest.dat rumors

$(NH)/dat/nhdat: $(UTIL)/lev_comp$(EXE) $(UTIL)/dgn_comp$(EXE) $(OUT)/host-dlb
	cd $(UTIL) && for f in -d -r -q -h -s -e; do $(RUNUTIL) ./makedefs$(EXE) $$f || exit 1; done
	cd $(NH)/dat && $(RUNUTIL) ../util/dgn_comp$(EXE) dungeon.pdf
	cd $(NH)/dat && for f in *.des; do $(RUNUTIL) ../util/lev_comp$(EXE) $$f || exit 1; done
	cd $(NH)/dat && LC_ALL=C $(OUT)/host-dlb cf nhdat $(DATDLB) *.lev

$(OUT)/data/nhdat: $(NH)/dat/nhdat $(ROOT)/wasm/data/sysconf
	mkdir -p $(OUT)/data
	cp $(NH)/dat/nhdat $(ROOT)/wasm/data/sysconf $(OUT)/data/
	touch $(OUT)/data/record $(OUT)/data/logfile $(OUT)/data/xlogfile $(OUT)/data/perm

# ---- game + driver ------------------------------------------------------
# The compile flags are a prerequisite too: a tree built with other flags is
# rebuilt, not linked from stale objects. The stamp is rewritten (at parse
# time) only when they change.
FLAGS_STAMP := $(OUT)/cflags.stamp
FLAGS_NOW := $(CC) | $(CFLAGS_NH) | $(CFLAGS_DRV) | $(HOT_OPT) $(NH_HOT)
ifneq ($(file <$(FLAGS_STAMP)),$(FLAGS_NOW))
  $(shell mkdir -p $(OUT))
  $(file >$(FLAGS_STAMP),$(FLAGS_NOW))
endif

$(filter-out %/posixregex.o,$(NH_OBJS)): $(OBJ)/nh/%.o: $(NH)/.patched $(GEN_HDRS) $(DRIVER)/nnh_hooks.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NH) $(if $(filter $*,$(NH_HOT)),$(HOT_OPT)) -c $(NH)/src/$*.c -o $@

$(OBJ)/nh/posixregex.o: $(NH)/.patched $(GEN_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_NH) -c $(NH)/sys/share/posixregex.c -o $@

$(OBJ)/drv/%.o: $(DRIVER)/%.c $(DRV_HDRS) $(GEN_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_DRV) -c $< -o $@

$(OUT)/nhdriver: $(NH_OBJS) $(DRV_OBJS) $(OUT)/data/nhdat
	$(CC) $(ARCH) $(SAN) -o $@ $(NH_OBJS) $(DRV_OBJS)

# ---- identity -----------------------------------------------------------
# The game identity names the rules a game was played under, not a binary:
# the pristine NetHack sources, the compile-time game options, the driver
# (which also fixes the options profile and the determinism profile), the
# hooks patch and sysconf. Every build from the same rules (native, JSPI,
# Asyncify, another emcc) gets the same identity, so a stored game resumes on
# any of them; each replay still checks every recorded boundary. rules.txt is
# the readable list of what was hashed; identity.json adds the per-build file
# hashes as diagnostics (scripts/engine-identity.mjs).
RULE_FILES := $(sort $(wildcard $(DRIVER)/*.c $(DRIVER)/*.h $(DRIVER)/*.js)) $(PATCHES) $(ROOT)/wasm/data/sysconf
$(OUT)/rules.txt: $(PRISTINE)/.pristine $(RULE_FILES) $(ROOT)/wasm/engine.mk
	@mkdir -p $(OUT)
	{ printf 'nethack-3.6.7 %s\n' "$$(cd $(PRISTINE) && find . -type f ! -name .pristine -print0 \
	      | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)"; \
	  printf 'defines'; printf ' %s' $(NH_DEFS); printf '\n'; \
	  cd $(ROOT) && sha256sum $(patsubst $(ROOT)/%,%,$(RULE_FILES)); } > $@.new
	mv $@.new $@

IDENTITY := node $(ROOT)/scripts/engine-identity.mjs
$(OUT)/identity.json: $(OUT)/rules.txt $(OUT)/nhdriver $(OUT)/data/nhdat
	$(IDENTITY) $@ $(OUT)/rules.txt native=$(OUT)/nhdriver,$(OUT)/data/nhdat

# The engine without a transport, for scripts/bench-engine (io_bench.c).
$(OBJ)/bench/io_bench.o: $(ROOT)/wasm/bench/io_bench.c $(DRV_HDRS) $(GEN_HDRS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_DRV) -c $< -o $@

$(OUT)/nhbench: $(NH_OBJS) $(filter-out %/io_native.o,$(DRV_OBJS)) $(OBJ)/bench/io_bench.o $(OUT)/data/nhdat
	$(CC) $(ARCH) -o $@ $(NH_OBJS) $(filter-out %/io_native.o,$(DRV_OBJS)) $(OBJ)/bench/io_bench.o

# Two links of the same objects; the input import is declared once, in
# io_wasm.js, for both. JSPI (WebAssembly.Suspending/promising) suspends the
# engine's real stack at nnh_js_next_request, so it needs no instrumentation:
# a smaller, faster module for the engines that have it. -lexports.js keeps
# import and export names unminified (a side effect emcc documents), so the
# host can wrap the import and main by name at instantiation. INVOKE_RUN=0:
# the JSPI host calls main itself, through WebAssembly.promising.
# ASYNCIFY, the fallback, suspends only inside nnh_js_next_request, the
# driver's single "wait for the next request" point; every window-port
# callback is plain C.
$(OUT)/asyncify-remove.json: $(ROOT)/wasm/asyncify-remove.py $(NH)/.patched $(wildcard $(DRIVER)/*.c)
	python3 $(ROOT)/wasm/asyncify-remove.py $(NH)/src $(DRIVER) > $@

WASM_COMMON := -sMODULARIZE=1 -sEXPORT_NAME=createNetHackEngine -sEXPORT_ES6=1 \
    -sENVIRONMENT=web,worker,node -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=0 \
    -sINITIAL_MEMORY=33554432 -sFORCE_FILESYSTEM=1 -sTOTAL_STACK=1048576 \
    -sEXPORTED_FUNCTIONS='["_main","_malloc","_free"]' \
    --js-library $(DRIVER)/io_wasm.js --embed-file $(OUT)/data@/nh
WASM_RUNTIME := "FS","UTF8ToString","stringToUTF8","lengthBytesUTF8"
# The Asyncify build also exports what a checkpoint must save and restore
# besides linear memory (web/src/worker/checkpoints.js): Asyncify's JS-side
# state (the unwound stack's data pointer, the rewind IDs) and the C stack
# pointer, a wasm global outside memory.
ASYNCIFY_LDFLAGS := -sEXPORTED_RUNTIME_METHODS='[$(WASM_RUNTIME),"Asyncify","stackSave","stackRestore"]' -sASYNCIFY=1 -sASYNCIFY_IMPORTS='["nnh_js_next_request"]' \
    -sASYNCIFY_REMOVE=@$(OUT)/asyncify-remove.json -sASYNCIFY_STACK_SIZE=65536
JSPI_LDFLAGS := -sEXPORTED_RUNTIME_METHODS='[$(WASM_RUNTIME)]' -lexports.js -sINVOKE_RUN=0

$(OUT)/out/asyncify/nethack.js: $(NH_OBJS) $(DRV_OBJS) $(OUT)/data/nhdat $(OUT)/asyncify-remove.json $(DRIVER)/io_wasm.js
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(ARCH) -o $@ $(NH_OBJS) $(DRV_OBJS) $(WASM_COMMON) $(ASYNCIFY_LDFLAGS) > $(OUT)/link-asyncify.log 2>&1 \
	    || { cat $(OUT)/link-asyncify.log; rm -f $@; exit 1; }
	@grep -v "removelist contained a non-existing" $(OUT)/link-asyncify.log || true

$(OUT)/out/jspi/nethack.js: $(NH_OBJS) $(DRV_OBJS) $(OUT)/data/nhdat $(DRIVER)/io_wasm.js
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(ARCH) -o $@ $(NH_OBJS) $(DRV_OBJS) $(WASM_COMMON) $(JSPI_LDFLAGS)

$(OUT)/out/identity.json: $(OUT)/rules.txt $(OUT)/out/jspi/nethack.js $(OUT)/out/asyncify/nethack.js
	$(IDENTITY) $@ $(OUT)/rules.txt \
	    jspi=$(OUT)/out/jspi/nethack.js,$(OUT)/out/jspi/nethack.wasm \
	    asyncify=$(OUT)/out/asyncify/nethack.js,$(OUT)/out/asyncify/nethack.wasm
