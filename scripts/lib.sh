# lib.sh - shared helpers for scripts/*: sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "need root to run: $*" >&2; return 1; fi
}

APT_UPDATED=""
# apt_install PKG... - install the Debian packages that are not installed yet.
apt_install() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing Debian packages: ${missing[*]}"
    if [ -z "$APT_UPDATED" ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# usage_if_asked "$@" - a script's --help (or -h): print the comment under
# its shebang (what it does and how it is run) and exit 0; else do nothing.
usage_if_asked() {
    case "${1:-}" in -h|--help) ;; *) return 0 ;; esac
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
}

# npm_deps - install the npm dev dependencies exactly as package-lock.json
# pins them (npm ci) when node_modules is missing or older than the lock: the
# site's bundler and Pyodide, the MCP TypeScript SDK, ESLint and TypeScript.
npm_deps() {
    command -v npm >/dev/null || apt_install npm
    if [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
        log "installing the npm dev dependencies (package-lock.json)"
        (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    fi
}

# emcc needs Debian's node modules (acorn, …) when /usr/bin/node is not
# Debian's own nodejs build.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

# fuzz_toolchain - install what the sanitized builds and libFuzzer need: clang,
# its compiler-rt runtimes (named after clang's major version: libclang-rt-14-dev
# on Debian 12, libclang-rt-19-dev on Debian 13) and the 32-bit C++ runtime the
# -m32 libFuzzer links against.
fuzz_toolchain() {
    apt_install clang gcc-multilib g++-multilib libc6-dev-i386
    apt_install "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
}

# build_request_fuzzer OUT - the libFuzzer harness over the request reader and
# validator (tests/fuzz/request_fuzzer.c), 32-bit like the shipped twin.
build_request_fuzzer() {
    local driver="$ROOT/wasm/driver"
    mkdir -p "$(dirname "$1")"
    clang -m32 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -std=gnu99 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
        -Wno-sign-compare -I"$driver" "$ROOT/tests/fuzz/request_fuzzer.c" "$driver/json_read.c" \
        "$driver/json_write.c" "$driver/utf8.c" "$driver/proto_request.c" "$driver/nnh_vocabulary.c" -o "$1"
}
