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

# emcc needs Debian's node modules (acorn, …) when /usr/bin/node is not
# Debian's own nodejs build.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
